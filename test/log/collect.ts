import { Writable } from "node:stream";

/** A stream that keeps what is written, optionally pretending to be a terminal. */
export class Collect extends Writable {
  readonly chunks: string[] = [];
  isTTY: boolean;

  constructor(isTTY = false) {
    super();
    this.isTTY = isTTY;
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(chunk.toString());
    done();
  }

  text(): string {
    return this.chunks.join("");
  }

  lines(): string[] {
    return this.text()
      .split("\n")
      .filter((line) => line !== "");
  }
}
