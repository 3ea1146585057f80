/** The one server-side-apply field manager of every write this controller makes. */
export const FIELD_MANAGER = 'appset-controller';
