#!/bin/sh
# appset-diff.sh: the CI step of docs/ci.md, one file for GitHub Actions and GitLab CI (and tested as it is).
# Runs `appset diff` between a pull request's base and head commits of the repository in the current directory,
# writes the markdown report to a file whatever the outcome, posts it, then fails only on a refusal or an error.
#
#   sh appset-diff.sh BASE HEAD [appset diff flags: --projects FILE --namespace NS --max-delete-share 0.5 ...]
#
# Environment:
#   APPSET_DIFF_REPO_URL  the repository's URL as the ApplicationSets' generators name it (required)
#   APPSET_DIFF_OUTPUT    the markdown file (default appset-diff.md)
#   APPSET_DIFF_POST      github: `gh pr comment` on pull request APPSET_DIFF_PR (GH_TOKEN), one comment updated;
#                         gitlab: a note on the merge request (CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID,
#                         a project access token with the api scope in APPSET_DIFF_TOKEN); unset: not posted
# Exit status: 0 when nothing changes or the changes are accepted, 1 when the controller would refuse the change
# or the diff failed. A comment that cannot be posted is a warning: the report is still in the file.
set -u
if [ $# -lt 2 ]; then
  echo 'usage: appset-diff.sh BASE HEAD [appset diff flags...]' >&2
  exit 1
fi
base=$1
head=$2
shift 2
out=${APPSET_DIFF_OUTPUT:-appset-diff.md}
errors=$(mktemp)
status=0
npx appset diff --repo "${APPSET_DIFF_REPO_URL:?set APPSET_DIFF_REPO_URL}=." --base "$base" --head "$head" -o markdown "$@" >"$out" 2>"$errors" || status=$?
cat "$errors" >&2
if [ ! -s "$out" ]; then
  # Stopped before any report (a commit missing from the clone, a bad flag): the comment shows the error.
  { echo '### appset diff failed'; echo; echo '```'; cat "$errors"; echo '```'; } >"$out"
fi
rm -f "$errors"

case "${APPSET_DIFF_POST:-}" in
  github)
    # --edit-last keeps one comment per pull request; the first run has none to edit.
    gh pr comment "${APPSET_DIFF_PR:?}" --body-file "$out" --edit-last 2>/dev/null || gh pr comment "$APPSET_DIFF_PR" --body-file "$out"
    ;;
  gitlab)
    node -e 'process.stdout.write(JSON.stringify({ body: require("fs").readFileSync(process.argv[1], "utf8") }))' "$out" >"$out.json" &&
      curl --fail --silent --show-error --request POST --header "PRIVATE-TOKEN: ${APPSET_DIFF_TOKEN:?}" \
        --header 'Content-Type: application/json' --data "@$out.json" \
        "$CI_API_V4_URL/projects/$CI_PROJECT_ID/merge_requests/$CI_MERGE_REQUEST_IID/notes" >/dev/null
    ;;
  '') true ;;
  *) false ;;
esac || echo "appset-diff.sh: warning: the report was not posted (APPSET_DIFF_POST=${APPSET_DIFF_POST:-}); it is in $out" >&2

if [ "$status" -gt 1 ]; then
  echo "appset diff: the controller would refuse this change, or the diff failed (exit status $status; see $out)" >&2
  exit 1
fi
exit 0
