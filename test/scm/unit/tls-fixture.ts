// A self-signed certificate for 127.0.0.1 (valid 2000–2100, CA:TRUE so it can be its own trust anchor),
// made once with openssl for the caRef and root CA tests; it protects nothing.

/** The private key of {@link LOCAL_CERT}. */
export const LOCAL_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgnTaeZfvKBLou5uCE
2Yw6m2NwlXCnDw02XjA7y5nnkN+hRANCAATpt3yhhJb5XsIscleJqq5Y/+Wqc7S7
Vwn5JKuMagWy7xfribSCo8j37saxcWh82no1gWZxQVIwRucvFm3bmzW3
-----END PRIVATE KEY-----
`;

/** A certificate for the IP address 127.0.0.1, signed by its own key. */
export const LOCAL_CERT = `-----BEGIN CERTIFICATE-----
MIIBXDCCAQKgAwIBAgIBATAKBggqhkjOPQQDAjAUMRIwEAYDVQQDDAkxMjcuMC4w
LjEwIBcNMDAwMTAxMDAwMDAwWhgPMjEwMDAxMDEwMDAwMDBaMBQxEjAQBgNVBAMM
CTEyNy4wLjAuMTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABOm3fKGElvlewixy
V4mqrlj/5apztLtXCfkkq4xqBbLvF+uJtIKjyPfuxrFxaHzaejWBZnFBUjBG5y8W
bdubNbejQzBBMA8GA1UdEQQIMAaHBH8AAAEwDwYDVR0TAQH/BAUwAwEB/zAdBgNV
HQ4EFgQUPlzivccHTVAVJ7s4U7ec5ztWhz8wCgYIKoZIzj0EAwIDSAAwRQIhAJXq
X/Cy2GlPzhQfZ1yyZ3+/F6TDZDSYG5q4OZZOxKFhAiAM9GKp1iIe1o5kAlJNIBv/
X1QXKwV3mtYhbLrIxUolwQ==
-----END CERTIFICATE-----
`;
