/**
 * A service manager stops a schedule by signalling its whole process group (systemd's default
 * KillMode), so a running run gets SIGTERM twice: the manager's and the one the schedule passes on.
 * The run must still stop as on one signal (exit 143, the database unchanged), not die mid-step.
 * The built CLI (dist/) against a slow simulated portal over HTTP.
 */
import { expect, it } from "vitest";
import { spawnRunNowSchedule, useSlowPortal, waitFor, watchChild } from "./schedule-helpers.js";

const { tmp, env } = useSlowPortal("group-stop-key");

it("a run signalled with its schedule's process group stops cleanly with exit 143", async () => {
  // Its own process group, as a service's processes are: the test signals the group.
  const runArgs = ["extract", "--db", "lms.duckdb", "--concurrency", "2", "--log-format", "json"];
  const child = spawnRunNowSchedule(tmp.dir, env(), runArgs, true);
  const { seen, exited, events } = watchChild(child);
  const stderr = () => seen.stderr;

  // The run is under way once its first resource is in.
  await waitFor("the run's first resource", () => events().some((e) => e.msg === "extracted grp"));
  expect(events().some((e) => e.msg === "extracted take")).toBe(false);
  process.kill(-(child.pid ?? 0), "SIGTERM");
  expect(await exited).toBe(0);

  const ended = events().find((e) => String(e.msg).startsWith("run ") && "exitCode" in e);
  expect(ended, stderr()).toMatchObject({
    msg: "run stopped: the schedule is stopping",
    level: "warn",
    exitCode: 143,
  });
  expect(ended).not.toHaveProperty("signal");
  expect(stderr()).toContain("extract interrupted; the new database holds no records yet");
}, 60_000);
