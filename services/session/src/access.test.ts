import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AuthError } from "@auth/errors";
import {
  createServiceClient,
  defaultCompanyLimits,
  hashAdminToken,
  type RunningGrpcServer,
  type ServiceClient,
} from "@auth/grpc-kit";
import { ensureDevPki, mtlsTransport, type TlsFiles, tlsEnvironment } from "@auth/grpc-kit/dev-pki";
import { systemClock } from "@auth/kv";
import { CaptchaVerdict, PasskeyCeremony, SecretKind, SessionServiceService } from "@auth/proto/session";
import { createLogger } from "@auth/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionAccess } from "./access.js";
import { startSessionForTests } from "./testing.js";

type Client = ServiceClient<typeof SessionServiceService>;
const adminToken = randomBytes(32).toString("base64url");
const holders = ["session", "identity", "gateway", "otp", "recovery", "operator", "consumer/e2e"] as const;
type Holder = (typeof holders)[number];

const dataDir = mkdtempSync(join(tmpdir(), "session-access-"));
let server: RunningGrpcServer;
const clients = {} as Record<Holder, Client>;

beforeAll(async () => {
  const pki = (await ensureDevPki(join(dataDir, "pki"), [...holders])) as Record<Holder, TlsFiles>;
  server = await startSessionForTests({
    env: { ...tlsEnvironment(pki.session), ADMIN_TOKEN_SHA256: hashAdminToken(adminToken) },
    clock: systemClock,
    logger: createLogger("session", "silent"),
  });
  for (const holder of holders) {
    clients[holder] = createServiceClient(SessionServiceService, `127.0.0.1:${server.port}`, {
      deadlineMs: 10_000,
      adminToken: holder === "operator" ? adminToken : undefined,
      transport: mtlsTransport(pki[holder]),
      server: "session",
    });
  }
});

afterAll(async () => {
  for (const client of Object.values(clients)) client.close();
  await server?.stop(100);
  rmSync(dataDir, { recursive: true, force: true });
});

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: AuthError) => error.code,
  );

describe("RecordFederatedLogin, over mutual TLS", () => {
  const login = { companyId: "c1", userId: "u-ann", authenticatedAt: new Date(), multiFactor: true };

  it("is the identity service's only: no other caller states a session's federated factor", () => {
    expect(sessionAccess.recordFederatedLogin).toEqual(["identity"]);
  });

  it.each(["gateway", "otp", "recovery", "operator", "consumer/e2e"] as const)(
    "refuses the %s with caller.forbidden",
    async (holder) => {
      expect(await codeOf(clients[holder].recordFederatedLogin(login))).toBe("caller.forbidden");
    },
  );

  it("records identity's, as a check for the session that starts on it", async () => {
    const { checkId } = await clients.identity.recordFederatedLogin(login);
    expect(checkId).not.toBe("");
  });
});

describe("GetCredentialChange, over mutual TLS", () => {
  it("is the identity service's only: its SetPassword asks whose change a session was claimed for", () => {
    expect(sessionAccess.getCredentialChange).toEqual(["identity"]);
  });

  it.each(["gateway", "session", "otp", "recovery", "operator", "consumer/e2e"] as const)(
    "refuses the %s with caller.forbidden",
    async (holder) => {
      expect(await codeOf(clients[holder].getCredentialChange({ sessionToken: "" }))).toBe(
        "caller.forbidden",
      );
    },
  );

  it("answers identity, for a token of no claimed session: not claimed", async () => {
    expect(await clients.identity.getCredentialChange({ sessionToken: "A".repeat(64) })).toMatchObject({
      claimed: false,
    });
  });
});

describe('the passkeys\' RPCs, over mutual TLS (docs/decisions.md, "Passkeys")', () => {
  const unknownToken = { sessionToken: "A".repeat(64), ceremony: PasskeyCeremony.LOGIN };
  const calls = {
    issuePasskeyChallenge: (client: Client) => client.issuePasskeyChallenge(unknownToken),
    takePasskeyChallenge: (client: Client) => client.takePasskeyChallenge(unknownToken),
    recordPasskeyProof: (client: Client) =>
      client.recordPasskeyProof({
        companyId: "c1",
        checkId: "no-such-check",
        userVerified: true,
        backedUp: true,
      }),
  };

  it.each(Object.keys(calls) as (keyof typeof calls)[])(
    "%s is the identity service's only: it runs the ceremonies, and no one else states what an assertion proved",
    async (method) => {
      expect(sessionAccess[method]).toEqual(["identity"]);
      for (const holder of ["gateway", "session", "otp", "recovery", "operator", "consumer/e2e"] as const)
        expect(await codeOf(calls[method](clients[holder])), holder).toBe("caller.forbidden");
      expect(await codeOf(calls[method](clients.identity))).not.toBe("caller.forbidden");
    },
  );

  it("leaves CreateSession, a password-free login's too, to the gateway", () => {
    expect(sessionAccess.createSession).toEqual(["gateway"]);
  });
});

describe("ReserveSecretCheck, over mutual TLS (docs/security.md, Trust between the services)", () => {
  const reservers = {
    PASSWORD: ["identity"],
    APP_CODE: ["identity"],
    SMS_CODE: ["gateway"],
    BACKUP_CODE: ["gateway"],
    PASSKEY: ["identity"],
    CONTROL_ANSWER: ["gateway"],
  } as const satisfies Partial<Record<keyof typeof SecretKind, readonly Holder[]>>;
  const reservation = (kind: SecretKind) => ({
    companyId: "c1",
    subject: { userId: "u-ann" },
    kind,
    captcha: CaptchaVerdict.UNSPECIFIED,
    limits: defaultCompanyLimits,
  });

  it.each(Object.entries(reservers))(
    "lets only the service that compares a %s reserve its check: another caller spends nothing of that budget",
    async (kind, allowed) => {
      for (const holder of ["identity", "gateway"] as const) {
        const code = await codeOf(
          clients[holder].reserveSecretCheck(reservation(SecretKind[kind as keyof typeof SecretKind])),
        );
        if ((allowed as readonly string[]).includes(holder))
          expect(code, holder).not.toBe("caller.forbidden");
        else expect(code, holder).toBe("caller.forbidden");
      }
    },
  );
});
