/**
 * The `Authorization` form a portal accepted, remembered from one run to the next. Without it
 * every run against a portal that wants `Bearer` starts with the raw token and spends the
 * requests it sends before the first refusal is read (authorization-form.ts). What is kept is a
 * JSON file of base URL to scheme: read once as the client starts, written when a run learned
 * another form. Only the form is kept, never a key or a token. A file that cannot be read or
 * written is as good as none: the form is then learned again, as without this memory.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { addressKey } from "../config/same-address.js";

/** What the client asks of a memory of forms, for its own portal. */
export interface FormMemory {
  /** The scheme the portal accepted last time ("" for the raw token), if known. */
  recall(): string | undefined;
  /** The portal accepted `scheme`. */
  remember(scheme: string): void;
}

/** Portals whose form is kept; the one learned longest ago goes first (it is learned again). */
export const MAX_PORTALS = 100;

function readForms(path: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => {
        return typeof entry[1] === "string";
      }),
    );
  } catch {
    return {};
  }
}

/** The forms kept in the JSON file at `path`, for the portal at `baseUrl`. */
export function formMemoryFile(path: string, baseUrl: URL): FormMemory {
  // Base URLs as the client uses them: the host's case and trailing slashes do not count.
  const key = addressKey(baseUrl.href);
  return {
    recall: () => readForms(path)[key],
    remember: (scheme) => {
      const forms = readForms(path);
      if (forms[key] === scheme) return;
      // Newest last, and no more than MAX_PORTALS: every portal ever used (a simulator on each
      // new port, say) would otherwise stay in the file for good.
      delete forms[key];
      forms[key] = scheme;
      const keys = Object.keys(forms);
      for (const old of keys.slice(0, Math.max(0, keys.length - MAX_PORTALS))) delete forms[old];
      try {
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        // Written whole, then renamed: a reader never sees half a file.
        const temp = `${path}.${process.pid}.tmp`;
        writeFileSync(temp, `${JSON.stringify(forms, null, 2)}\n`, { mode: 0o600 });
        renameSync(temp, path);
      } catch {
        // Not kept: the next run learns the form again.
      }
    },
  };
}
