/**
 * What the process says when it must end at once (a second Ctrl-C). The first Ctrl-C stops a
 * command cleanly, which can mean waiting for a mail server's answer; the second does not wait,
 * and its exit would otherwise leave no word of what a command had already done that cannot be
 * undone (messages delivered). A command doing such work leaves here, for its duration, a way to
 * say it; it is called synchronously from the signal handler.
 */
import { writeSync } from "node:fs";

/** Lines for stdout and stderr, each ending with a newline (or empty). */
export interface Words {
  stdout: string;
  stderr: string;
}

export class LastWords {
  #say: (() => Words) | undefined;

  /** Runs `work` with `say` as what the process says if it must end before `work` does. */
  async during<T>(say: () => Words, work: () => Promise<T>): Promise<T> {
    this.#say = say;
    try {
      return await work();
    } finally {
      this.#say = undefined;
    }
  }

  /**
   * Writes the words, if any, straight to the process's stdout and stderr: nothing asynchronous
   * may run before the process ends. A stream that cannot be written to is left.
   */
  writeNow(): void {
    let words: Words | undefined;
    try {
      words = this.#say?.();
    } catch {
      // Last words are a courtesy: a failure to make them must not stop the exit.
      return;
    }
    if (words === undefined) return;
    for (const [fd, text] of [
      [1, words.stdout],
      [2, words.stderr],
    ] as const) {
      try {
        if (text !== "") writeSync(fd, text);
      } catch {
        // A closed stream: nothing more to say there.
      }
    }
  }
}
