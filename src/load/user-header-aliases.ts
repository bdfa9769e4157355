/**
 * The headers HR and portal exports give the `user` table's base columns, as header keys
 * (`headerKey` in src/tabular/header-names.ts: case, spaces, punctuation and accents ignored).
 * `roster import` fills the table's columns by them, and `apply --op user.edit` reads a user's
 * fields by them, so that one HR sheet means the same columns to both.
 */
import { USER_BASE_COLUMNS } from "./user-table.js";

export type UserBaseColumn = (typeof USER_BASE_COLUMNS)[number];

/** Header keys per base column; the column's own name is always one. */
export const USER_HEADER_ALIASES: Readonly<Record<UserBaseColumn, readonly string[]>> = {
  // `user_firstname`, `user_lastname`, `user_email`: the portal's own field names as an export
  // prefixes them with their resource's, as its other user fields (user_status) are named.
  user_id: ["userid", "id", "user"],
  firstname: ["firstname", "givenname", "first", "forename", "prenom", "userfirstname"],
  // "Nom" beside "Prénom" is a French export's last name.
  lastname: ["lastname", "surname", "familyname", "last", "nom", "nomdefamille", "userlastname"],
  email: ["email", "emailaddress", "employeeemail", "mail", "useremail"],
  user_status: ["userstatus", "status"],
  user_organisation_identifier: [
    "userorganisationidentifier",
    "organisationidentifier",
    "organizationidentifier",
    "organisationid",
    "organizationid",
    "employeeid",
    "employeenumber",
  ],
};

/**
 * Headers that name a base column only in a file with none of its own aliases: HR systems call
 * the status "Employment Status", "Employee Status" or "Worker Status", and a roster whose status
 * went unread left no one out as gone. Beside a "Status" column such a header may mean something
 * else (a contract's status), so there it stays a column of its own, as it always was. So with
 * the address: Workday, BambooHR and HiBob export it as "Work Email", SuccessFactors as "Business
 * Email", and read as a column of its own it left every report's addresses empty and no manager
 * reachable; beside an "Email" column it stays a column of its own.
 */
export const USER_HEADER_FALLBACKS: Readonly<Partial<Record<UserBaseColumn, readonly string[]>>> = {
  email: ["workemail", "workemailaddress", "primaryworkemail", "businessemail"],
  user_status: ["employmentstatus", "employeestatus", "workerstatus"],
};

const BY_KEY = new Map<string, UserBaseColumn>(
  USER_BASE_COLUMNS.flatMap((column) =>
    USER_HEADER_ALIASES[column].map((key) => [key, column] as const),
  ),
);

/** The base column a header key names, if any. */
export function userColumnOfKey(key: string): UserBaseColumn | undefined {
  return BY_KEY.get(key);
}

/** The base column a header key names where the file has no column of that base's own aliases. */
export function userFallbackOfKey(key: string): UserBaseColumn | undefined {
  return USER_BASE_COLUMNS.find((column) => USER_HEADER_FALLBACKS[column]?.includes(key));
}
