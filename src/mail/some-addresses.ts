/** Addresses in a line of output: the first few, then how many more ("a, b and 3 more"). */

/** How many recipients a message lists by address before counting the rest. */
const LISTED = 10;

/** `addresses` for a line: the first `listed`, then how many more. */
export function someAddresses(addresses: readonly string[], listed = LISTED): string {
  const more = addresses.length - listed;
  return `${addresses.slice(0, listed).join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}
