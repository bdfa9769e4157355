/**
 * Changes the trial makes to the portal while a run reads it, beside the simulator's own
 * inserts and deletes while paging: edits of random groups, access records and users, and a
 * record of every key created, so that a created record is not taken for one that never existed.
 */
import type { RunningSimulator } from "../../src/simulator/server.js";

const STATUSES = ["active", "inactive", "expired"] as const;

export interface Churn {
  readonly created: (name: string) => ReadonlySet<number>;
  /** Keys edited by the churn, per resource: their values may be any version they had. */
  readonly touched: (name: string) => ReadonlySet<number>;
  stop(): void;
}

function keyedSets() {
  const sets = new Map<string, Set<number>>();
  return (name: string) => {
    const set = sets.get(name) ?? new Set<number>();
    sets.set(name, set);
    return set;
  };
}

export function startEditing(sim: RunningSimulator, perTick: number): Churn {
  const created = keyedSets();
  const touched = keyedSets();
  const insert = sim.data.insert.bind(sim.data);
  sim.data.insert = (name, count, parentId) => {
    const ids = insert(name, count, parentId);
    for (const id of ids) created(name).add(id);
    // A new link renames its user's groups: the user changed during the run.
    if (name === "user_grp") for (const id of ids) touchUserOf(sim, id, touched);
    return ids;
  };
  let n = 0;
  const edit = () => {
    for (let i = 0; i < perTick; i++) {
      n += 1;
      const pick = n % 3;
      const name = pick === 0 ? "grp" : pick === 1 ? "product_access" : "user";
      const ids = name === "user" ? sim.data.userIds() : sim.data.list(name).map(keyOf(name));
      const id = ids[(n * 7919) % ids.length];
      if (id === undefined) continue;
      const body =
        name === "grp"
          ? { grp_description: `edited ${n}` }
          : name === "product_access"
            ? { product_access_status: STATUSES[n % 3] }
            : { user_organisation_identifier: `org-${n}` };
      sim.data.edit(name, id, body);
      touched(name).add(id);
    }
  };
  const timer = perTick > 0 ? setInterval(edit, 5) : undefined;
  return {
    created,
    touched,
    stop: () => {
      clearInterval(timer);
      sim.data.insert = insert;
    },
  };
}

/**
 * Edits `count` groups and access records at once, in a calm moment between two runs: the next
 * incremental run of each must bring them, from the cursor of the last run that loaded it.
 */
export function editBetweenRuns(sim: RunningSimulator, count: number): void {
  for (let i = 0; i < count; i++) {
    const name = i % 2 === 0 ? "grp" : "product_access";
    const ids = sim.data.list(name).map(keyOf(name));
    const id = ids[(i * 104_729 + count) % ids.length];
    if (id === undefined) continue;
    const body =
      name === "grp"
        ? { grp_description: `between runs ${i}` }
        : { product_access_status: STATUSES[(i + 1) % 3] };
    sim.data.edit(name, id, body);
  }
}

const keyOf = (name: string) => (record: object) =>
  (record as Record<string, number>)[`${name}_id`] as number;

function touchUserOf(sim: RunningSimulator, linkId: number, touched: (n: string) => Set<number>) {
  const link = sim.data.get("user_grp", linkId);
  if (link) touched("user").add(link.user_grp_user_id as number);
}
