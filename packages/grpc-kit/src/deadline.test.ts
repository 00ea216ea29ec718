import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceClient, forRequest, type ServiceClient } from "./client.js";
import { assertTimeLeft, withDeadline } from "./deadline.js";
import type { RunningGrpcServer } from "./server.js";
import { startDisclaimerServer } from "./test-servers.testing.js";

const plaintext = { kind: "plaintext" } as const;
/** A client's own deadline, far beyond any request's in these tests: only the request's can end a call. */
const patientMs = 60_000;
/**
 * A request's own deadline: long enough that a call reaches its handler before it passes on a loaded
 * machine (with 300 ms, a relay's handler was at times never started, the deadline gone on arrival).
 */
const requestMs = 2_000;

const clientOf = (server: RunningGrpcServer): ServiceClient<typeof DisclaimerServiceService> =>
  createServiceClient(DisclaimerServiceService, `127.0.0.1:${server.port}`, {
    deadlineMs: patientMs,
    transport: plaintext,
    server: "disclaimer",
  });

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: { code?: string }) => error.code,
  );

describe("one deadline per request", () => {
  let release: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let hanging: RunningGrpcServer;
  let relay: RunningGrpcServer;
  let toHanging: ServiceClient<typeof DisclaimerServiceService>;
  let toRelay: ServiceClient<typeof DisclaimerServiceService>;
  /** How long the relay's own call to the hanging server lasted, once it ended. */
  let relayedCallMs: number | undefined;

  beforeAll(async () => {
    hanging = await startDisclaimerServer({
      transport: plaintext,
      methods: {
        listRequiredDisclaimers: async () => {
          await released;
          return { disclaimers: [] };
        },
      },
    });
    toHanging = clientOf(hanging);
    relay = await startDisclaimerServer({
      transport: plaintext,
      methods: {
        listRequiredDisclaimers: async (request) => {
          const started = Date.now();
          try {
            return await toHanging.listRequiredDisclaimers(request);
          } finally {
            relayedCallMs = Date.now() - started;
          }
        },
      },
    });
    toRelay = clientOf(relay);
  });
  afterAll(async () => {
    release();
    toHanging.close();
    toRelay.close();
    await Promise.all([hanging.stop(100), relay.stop(100)]);
  });

  const request = { companyId: "c", userId: "u" };

  it("gives a call no more than what is left of the request, whatever the client's own deadline", async () => {
    const started = Date.now();
    const code = await withDeadline(Date.now() + requestMs, () =>
      codeOf(toHanging.listRequiredDisclaimers(request)),
    );
    expect(code).toBe("service.unavailable");
    expect(Date.now() - started).toBeLessThan(patientMs / 2);
  });

  it("gives a call made for a request (forRequest) no more than what is left of it", async () => {
    const started = Date.now();
    const calls = forRequest(toHanging, { requestDeadline: Date.now() + requestMs });
    expect(await codeOf(calls.listRequiredDisclaimers(request))).toBe("service.unavailable");
    expect(await codeOf(calls.listRequiredDisclaimers(request, { deadlineMs: patientMs }))).toBe(
      "service.unavailable",
    );
    expect(Date.now() - started).toBeLessThan(patientMs / 2);
  });

  it("passes a request's deadline given with the call on to the calls its handler makes", async () => {
    relayedCallMs = undefined;
    const calls = forRequest(toRelay, { requestDeadline: Date.now() + requestMs });
    expect(await codeOf(calls.listRequiredDisclaimers(request))).toBe("service.unavailable");
    await expect.poll(() => relayedCallMs, { timeout: patientMs / 2 }).toBeDefined();
    expect(relayedCallMs).toBeLessThan(patientMs / 2);
  });

  it("keeps an outer request's deadline when an inner one is later", async () => {
    const started = Date.now();
    const code = await withDeadline(Date.now() + requestMs, () =>
      withDeadline(Date.now() + patientMs, () => codeOf(toHanging.listRequiredDisclaimers(request))),
    );
    expect(code).toBe("service.unavailable");
    expect(Date.now() - started).toBeLessThan(patientMs / 2);
  });

  it("passes a caller's deadline on to the calls its handler makes", async () => {
    relayedCallMs = undefined;
    const code = await withDeadline(Date.now() + requestMs, () =>
      codeOf(toRelay.listRequiredDisclaimers(request)),
    );
    expect(code).toBe("service.unavailable");
    // The relay's own call ends with its caller's deadline, not after its client's minute.
    await expect.poll(() => relayedCallMs, { timeout: patientMs / 2 }).toBeDefined();
    expect(relayedCallMs).toBeLessThan(patientMs / 2);
  });

  it("lets no work start once the request's deadline has passed", () => {
    expect(() => assertTimeLeft(Date.now() - 1)).toThrow("deadline has passed");
    expect(() => assertTimeLeft(Date.now() + patientMs)).not.toThrow();
    expect(() => assertTimeLeft(Number.POSITIVE_INFINITY)).not.toThrow();
  });
});
