/**
 * A service manager stops a schedule by signalling its whole process group (systemd's default
 * KillMode), so a running run gets SIGTERM twice: the manager's and the one the schedule passes on.
 * The run must still stop as on one signal (exit 143, the database unchanged), not die mid-step.
 * The built CLI (dist/) against a slow simulated portal over HTTP.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { PROJECT_ROOT } from "../helpers/spawn-cli.js";
import { useSlowPortal, waitFor, watchChild } from "./schedule-helpers.js";

const { tmp, env } = useSlowPortal("group-stop-key");

it("a run signalled with its schedule's process group stops cleanly with exit 143", async () => {
  const child = spawn(
    process.execPath,
    [
      join(PROJECT_ROOT, "bin", "lms-export.js"),
      "schedule",
      "--cron",
      "0 0 1 1 *",
      "--run-now",
      "--log-format",
      "json",
      "--",
      "extract",
      "--db",
      "lms.duckdb",
      "--concurrency",
      "2",
      "--log-format",
      "json",
    ],
    {
      cwd: tmp.dir,
      // Its own process group, as a service's processes are: the test signals the group.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: env(),
    },
  );
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
  expect(stderr()).toContain("extract interrupted; the database is unchanged");
}, 60_000);
