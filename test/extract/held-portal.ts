/**
 * A portal in front of the simulator that holds the answer to one request until the test lets it
 * go: the moment a test needs (an extract paging, its storage ready) is then caught without
 * timing.
 */
import type { RunningSimulator } from "../../src/simulator/server.js";
import { forwardingPortal } from "./forwarding-portal.js";

export interface HeldPortal {
  /** The proxy's base URL, for the extract. */
  readonly baseUrl: string;
  /** Resolves once the first request `holds` picks has arrived (and waits). */
  readonly held: Promise<void>;
  /** Paths of every request seen, in order. */
  readonly paths: string[];
  /** Forwards the held request. */
  release(): void;
  close(): Promise<void>;
}

/** `holds(path, body)` picks the request to hold (the first it answers true for). */
export async function heldPortal(
  sim: RunningSimulator,
  holds: (path: string, body: string) => boolean,
): Promise<HeldPortal> {
  let markHeld = () => {};
  const held = new Promise<void>((resolve) => {
    markHeld = resolve;
  });
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holding = false;
  const portal = await forwardingPortal(sim, {
    before: async (path, body) => {
      if (holding || !holds(path, body)) return;
      holding = true;
      markHeld();
      await released;
    },
  });
  return {
    baseUrl: portal.baseUrl,
    held,
    paths: portal.paths,
    release: () => release(),
    close: () => {
      release();
      return portal.close();
    },
  };
}
