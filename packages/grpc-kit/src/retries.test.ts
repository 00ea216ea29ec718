import { AuthError } from "@auth/errors";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idempotentMethods } from "./idempotent-methods.js";
import { createServiceClient, type GrpcTransport, type RunningGrpcServer } from "./index.js";
import { startDisclaimerServer, testPki } from "./test-servers.testing.js";

const names = idempotentMethods().map(({ service, method }) => `${service}/${method}`);

describe("the methods a caller may send twice, from the contracts' idempotency_level", () => {
  it("are the reads", () => {
    expect(names).toEqual(
      expect.arrayContaining([
        "auth.identity.v1.IdentityService/AuthenticateApiKey",
        "auth.identity.v1.IdentityService/FindUser",
        "auth.session.v1.SessionService/IntrospectSession",
        "auth.session.v1.SessionService/GetCheckBudget",
        "auth.introspection.v1.TokenIntrospectionService/IntrospectToken",
        "auth.disclaimer.v1.DisclaimerService/ListRequiredDisclaimers",
      ]),
    );
  });

  it("leave out every write, every check of a secret and every spending of a budget", () => {
    for (const method of [
      "auth.identity.v1.IdentityService/VerifyPassword",
      "auth.identity.v1.IdentityService/VerifyCredentials",
      "auth.identity.v1.IdentityService/SetPassword",
      "auth.identity.v1.IdentityService/UseBackupCode",
      // A recovery's delivery spends one of the user's recovery messages.
      "auth.identity.v1.IdentityService/GetSmsDelivery",
      "auth.identity.v1.IdentityService/GetMailDelivery",
      "auth.session.v1.SessionService/AdvanceSession",
      "auth.session.v1.SessionService/ReserveSecretCheck",
      // Its answer says whether this call revoked the token: a repeat would answer differently.
      "auth.session.v1.SessionService/RevokeSession",
      "auth.otp.v1.OtpService/SendOtp",
      "auth.otp.v1.OtpService/VerifyOtp",
      "auth.recovery.v1.RecoveryService/RedeemRecoveryLink",
      "auth.disclaimer.v1.DisclaimerService/AcceptDisclaimers",
    ]) {
      expect(names).not.toContain(method);
    }
  });
});

describe("a call to two replicas, one of which answers UNAVAILABLE", () => {
  let transports: Record<string, GrpcTransport>;
  const servers: RunningGrpcServer[] = [];
  /** Calls each replica got, by method. */
  const served = [
    { reads: 0, writes: 0 },
    { reads: 0, writes: 0 },
  ];
  let client: ReturnType<typeof createServiceClient<typeof DisclaimerServiceService>>;
  const calls = 20;

  beforeAll(async () => {
    transports = await testPki(["disclaimer", "gateway"]);
    for (const [index, counts] of served.entries()) {
      const answer = () => {
        if (index === 0) throw new AuthError("service.unavailable", { detail: "a replica going away" });
      };
      servers.push(
        await startDisclaimerServer({
          transport: transports.disclaimer as GrpcTransport,
          methods: {
            listRequiredDisclaimers: async () => {
              counts.reads += 1;
              answer();
              return { disclaimers: [] };
            },
            acceptDisclaimers: async () => {
              counts.writes += 1;
              answer();
              return { missing: [] };
            },
          },
        }),
      );
    }
    client = createServiceClient(
      DisclaimerServiceService,
      `ipv4:${servers.map((server) => `127.0.0.1:${server.port}`).join(",")}`,
      { deadlineMs: 10_000, transport: transports.gateway as GrpcTransport, server: "disclaimer" },
    );
  });

  afterAll(async () => {
    client?.close();
    await Promise.all(servers.map((server) => server.stop(100)));
  });

  it("sends a read again, to the other replica: every read succeeds", async () => {
    for (let i = 0; i < calls; i += 1) {
      await client.listRequiredDisclaimers({ companyId: "c", userId: "u" });
    }
    expect(served[1]?.reads).toBe(calls);
    expect(served[0]?.reads).toBeGreaterThan(0);
  });

  it("never sends a write again: each is served once, and those that met UNAVAILABLE fail", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: calls }, () =>
        client.acceptDisclaimers({ companyId: "c", userId: "u", codes: [], clientAddress: "" }).then(
          () => "ok",
          (error: AuthError) => error.code,
        ),
      ),
    );
    expect((served[0]?.writes ?? 0) + (served[1]?.writes ?? 0)).toBe(calls);
    expect(outcomes.filter((outcome) => outcome === "service.unavailable")).toHaveLength(
      served[0]?.writes ?? -1,
    );
    expect(served[0]?.writes).toBeGreaterThan(0);
  });
});
