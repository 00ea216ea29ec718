import { randomBytes } from "node:crypto";
import {
  createServiceClient,
  defaultCompanyLimits,
  hashAdminToken,
  type RunningGrpcServer,
  type ServiceClient,
} from "@auth/grpc-kit";
import { IdentityServiceService } from "@auth/proto/identity";
import { FactorKind } from "@auth/proto/introspection";
import { CheckOutcome, SecretKind, SessionServiceService, SessionState } from "@auth/proto/session";
import { createLogger } from "@auth/runtime";
import { startSessionForTests, withLimits } from "@auth/session/testing";
import { metrics } from "@auth/telemetry";
import { testBudgets } from "@auth/testing";
import { SoftAuthenticator } from "@auth/testing/soft-authenticator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCompany, seedUser, startIdentityForTests, type TestUser } from "./testing.js";

/**
 * The passkey ceremonies against the real session service (its challenges, budgets, proofs and
 * moves), both in this process over plain text: what identity asks of it and what the session then
 * holds. The gateway's steps on top of them are tested in gateway/src/flow-tests.
 */
const adminToken = randomBytes(32).toString("base64url");
const env = { GRPC_PLAINTEXT_DEV: "true", ADMIN_TOKEN_SHA256: hashAdminToken(adminToken) };
const origin = "https://login.example.test";
const relyingParty = { rpId: "example.test", origins: [origin], allowPasswordless: true };
const clientAddress = "192.0.2.30";
const logger = createLogger("passkeys", "silent");

let identityServer: RunningGrpcServer;
let sessionServer: RunningGrpcServer;
let identity: ServiceClient<typeof IdentityServiceService>;
let session: ServiceClient<typeof SessionServiceService>;

beforeAll(async () => {
  // The session service calls no other: it starts first, and identity calls it.
  sessionServer = await startSessionForTests({ env, clock: { now: () => Date.now() }, logger });
  const options = { deadlineMs: 10_000, adminToken, transport: { kind: "plaintext" } } as const;
  session = withLimits(
    createServiceClient(SessionServiceService, `127.0.0.1:${sessionServer.port}`, {
      ...options,
      server: "session",
    }),
    // The seeded companies' limits, as the gateway sends them.
    () => defaultCompanyLimits,
  );
  identityServer = await startIdentityForTests({ env, session, logger });
  identity = createServiceClient(IdentityServiceService, `127.0.0.1:${identityServer.port}`, {
    ...options,
    server: "identity",
  });
}, testBudgets.pgliteOpenMs);

afterAll(async () => {
  identity.close();
  session.close();
  await sessionServer.stop(100);
  await identityServer.stop(100);
});

/** A login session of the user (none: a password-free login's), in checkpassword. */
async function loginSession(companyId: string, user: TestUser | undefined) {
  const { sessionToken } = await session.createSession({
    companyId,
    userId: user?.id ?? "",
    loginId: user?.loginName ?? "",
    state: SessionState.CHECKPASSWORD,
    passwordChangeRequired: false,
    disclaimersRequired: [],
    lockoutKind: SecretKind.UNSPECIFIED,
    userAgent: "tests",
    clientAddress,
    passkeyDiscovery: user === undefined,
    deviceId: "",
  });
  return sessionToken;
}

/** Moves the session on a right check, as the gateway's step does; the session's new token. */
async function move(
  sessionToken: string,
  fromState: SessionState,
  toState: SessionState,
  rightCheckId: string,
) {
  const moved = await session.advanceSession({
    sessionToken,
    fromState,
    toState,
    renewCredentialGeneration: false,
    rightCheckId,
  });
  return { token: moved.sessionToken, userId: moved.session?.userId };
}

/** The user's password checked in the session, and the session moved on it; its new token. */
async function passPassword(companyId: string, user: TestUser, sessionToken: string, to: SessionState) {
  const { check } = await identity.verifyPassword({
    companyId,
    userId: user.id,
    password: user.password ?? "",
    clientAddress,
    sessionToken,
  });
  return (await move(sessionToken, SessionState.CHECKPASSWORD, to, check?.checkId ?? "")).token;
}

/** A new passkey of the authenticator, registered in an authorized session of the user's. */
async function enrol(companyId: string, user: TestUser, authenticator: SoftAuthenticator) {
  const sessionToken = await passPassword(
    companyId,
    user,
    await loginSession(companyId, user),
    SessionState.AUTHORIZED,
  );
  const { optionsJson } = await identity.beginPasskeyRegistration({ companyId, sessionToken });
  const finished = await identity.finishPasskeyRegistration({
    companyId,
    sessionToken,
    responseJson: JSON.stringify(authenticator.register(JSON.parse(optionsJson))),
  });
  expect(finished.passkey).toBeDefined();
}

/** The assertion's options for the session, the authenticator's answer, and identity's verdict. */
async function assertIn(companyId: string, sessionToken: string, authenticator: SoftAuthenticator) {
  const { optionsJson } = await identity.beginPasskeyLogin({ companyId, sessionToken });
  if (!optionsJson) throw new Error("no passkey offered");
  const responseJson = JSON.stringify(authenticator.assert(JSON.parse(optionsJson)));
  return {
    responseJson,
    verify: () => identity.verifyPasskey({ companyId, sessionToken, responseJson, clientAddress }),
  };
}

const verifications = async () =>
  (await metrics.secretsCompared.get()).values.find((value) => value.labels.kind === "passkey")?.value ?? 0;

const authenticationOf = async (sessionToken: string) =>
  (await session.introspectSession({ sessionToken })).session?.authentication;

describe("passkeys with the session service", () => {
  it("authorize a session as its second factor after a password: the factor is the passkey, device-bound (hwk), level 2", async () => {
    const company = await seedCompany(identity, { passkeys: relyingParty });
    const user = await seedUser(identity, company.id);
    const authenticator = new SoftAuthenticator({ origin });
    await enrol(company.id, user, authenticator);
    const sessionToken = await passPassword(
      company.id,
      user,
      await loginSession(company.id, user),
      SessionState.CHECKOTP,
    );
    const answer = await (await assertIn(company.id, sessionToken, authenticator)).verify();
    expect(answer).toMatchObject({ valid: true, check: { outcome: CheckOutcome.ALLOWED } });
    const { token } = await move(
      sessionToken,
      SessionState.CHECKOTP,
      SessionState.AUTHORIZED,
      answer.check?.checkId ?? "",
    );
    const authentication = await authenticationOf(token);
    expect(authentication?.level).toBe(2);
    expect(authentication?.amr).toEqual(expect.arrayContaining(["pwd", "hwk", "mfa"]));
    expect(authentication?.factors.map((factor) => factor.kind)).toEqual([
      FactorKind.PASSWORD,
      FactorKind.PASSKEY,
    ]);
  });

  it("find the user of a password-free login, whose session a user-verified synced passkey authorizes alone (swk)", async () => {
    const company = await seedCompany(identity, { passkeys: relyingParty });
    const user = await seedUser(identity, company.id);
    const authenticator = new SoftAuthenticator({ origin, backedUp: true });
    await enrol(company.id, user, authenticator);
    const sessionToken = await loginSession(company.id, undefined);
    const answer = await (await assertIn(company.id, sessionToken, authenticator)).verify();
    expect(answer).toMatchObject({ valid: true, userVerified: true, user: { id: user.id } });
    const moved = await move(
      sessionToken,
      SessionState.CHECKPASSWORD,
      SessionState.AUTHORIZED,
      answer.check?.checkId ?? "",
    );
    expect(moved.userId).toBe(user.id);
    const authentication = await authenticationOf(moved.token);
    expect(authentication).toMatchObject({ level: 2 });
    expect(authentication?.amr).toEqual(expect.arrayContaining(["swk", "mfa"]));
    expect(authentication?.factors).toEqual([
      expect.objectContaining({ kind: FactorKind.PASSKEY, userVerified: true }),
    ]);
  });

  it("verify one of 20 parallel assertions with one challenge", async () => {
    const company = await seedCompany(identity, { passkeys: relyingParty });
    const user = await seedUser(identity, company.id);
    const authenticator = new SoftAuthenticator({ origin });
    await enrol(company.id, user, authenticator);
    const sessionToken = await passPassword(
      company.id,
      user,
      await loginSession(company.id, user),
      SessionState.CHECKOTP,
    );
    const { verify } = await assertIn(company.id, sessionToken, authenticator);
    const before = await verifications();
    const answers = await Promise.allSettled(Array.from({ length: 20 }, verify));
    const valid = answers.filter((answer) => answer.status === "fulfilled" && answer.value.valid);
    expect(valid).toHaveLength(1);
    expect(await verifications()).toBe(before + 1);
  });
});
