import { type RunningGrpcServer, startGrpcServer } from "@auth/grpc-kit";
import { createLogger, freePort } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BackendAddresses } from "./backends.js";
import { type BackendHealth, backendHealth } from "./readiness.js";

const plaintext = { kind: "plaintext" } as const;

/** A process that answers health checks SERVING, as a service does once its store has answered. */
const serving = () =>
  startGrpcServer({
    host: "127.0.0.1",
    port: 0,
    transport: plaintext,
    services: [],
    logger: createLogger("readiness-test", "silent"),
  });

/** What the gateway's readiness check tells, by service, as the metrics show it. */
async function servingByService(): Promise<Record<string, number>> {
  const { values } = await metrics.serviceServing.get();
  return Object.fromEntries(values.map(({ labels, value }) => [String(labels.service), value]));
}

/**
 * /readyz (docs/operations.md, "Probes"): ready while identity and session serve, whatever otp,
 * recovery, disclaimer and audit do; each service's state shows in the metrics and, when it changes, in
 * the log.
 */
describe("the gateway's readiness", () => {
  let identity: RunningGrpcServer;
  let session: RunningGrpcServer;
  let health: BackendHealth;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    [identity, session] = await Promise.all([serving(), serving()]);
    const nobody = async () => `127.0.0.1:${await freePort()}`;
    const addresses: BackendAddresses = {
      identity: `127.0.0.1:${identity.port}`,
      session: `127.0.0.1:${session.port}`,
      otp: await nobody(),
      recovery: await nobody(),
      disclaimer: await nobody(),
      audit: await nobody(),
    };
    const logger = createLogger("gateway", "info", {
      write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>),
    });
    health = backendHealth(addresses, plaintext, { keepaliveTimeoutMs: 1_000, logger });
  });
  afterAll(async () => {
    health?.close();
    await Promise.all([identity?.stop(100), session?.stop(100)]);
  });

  it("is ready while otp, recovery, disclaimer and audit are down, and says which in its metrics and its log", async () => {
    expect(await health.notServing(1_000)).toEqual([]);
    expect(await servingByService()).toEqual({
      identity: 1,
      session: 1,
      otp: 0,
      recovery: 0,
      disclaimer: 0,
      audit: 0,
    });
    expect(lines.at(-1)).toMatchObject({ level: 40, degraded: ["otp", "recovery", "disclaimer", "audit"] });
  });

  it("logs a state once, not at every check", async () => {
    const before = lines.length;
    await health.notServing(1_000);
    expect(lines).toHaveLength(before);
  });

  it("is not ready while session, which every flow needs, is down", async () => {
    await session.stop(100);
    expect(await health.notServing(1_000)).toEqual(["session"]);
    expect((await servingByService()).session).toBe(0);
    expect(lines.at(-1)).toMatchObject({
      level: 40,
      msg: "not ready",
      notServing: ["session"],
      degraded: ["otp", "recovery", "disclaimer", "audit"],
    });
  });
});
