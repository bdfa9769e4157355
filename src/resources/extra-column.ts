/**
 * Name of the extra column that keeps, as a JSON object, any field the portal sent that the
 * registry does not know (schema drift is kept, never dropped).
 */
export const EXTRA_COLUMN = "_extra";
