/** A writable stream that keeps what is written to it as text, for output a test reads whole. */
import { Writable } from "node:stream";

export function textSink(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}
