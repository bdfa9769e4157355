/**
 * The Content-IDs of one message's inline images. RFC 2392 makes a Content-ID a msg-id,
 * `<left@right>`; a bare name is not one, and strict clients (Outlook among them) may then fail
 * to match the image to its `cid:` link. RFC 2045 asks for values unique in the world, so the
 * left part is the image's name and a token drawn for each message.
 */
import { randomBytes } from "node:crypto";

/** The right part: what made the images, as no host of the sender's is known here. */
const RIGHT = "lms-export";

/** A maker of Content-IDs for one message: `chart-1` → `chart-1.3f9a0c1b2d4e@lms-export`. */
export function messageContentIds(): (name: string) => string {
  const token = randomBytes(6).toString("hex");
  return (name) => `${name}.${token}@${RIGHT}`;
}
