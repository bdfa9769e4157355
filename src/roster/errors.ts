import { LmsExportError } from "../errors/lms-export-error.js";

/** A roster file that cannot be imported as it is (bad input); the message names every problem. */
export class RosterError extends LmsExportError {
  override readonly name = "RosterError";
  constructor(message: string) {
    super("bad-input", message);
  }
}
