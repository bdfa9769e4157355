/** A roster file that cannot be imported as it is; the message names every problem shown. */
export class RosterError extends Error {
  override readonly name = "RosterError";
}
