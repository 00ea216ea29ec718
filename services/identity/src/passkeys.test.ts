import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MailMessage, MemoryOutbox } from "@auth/delivery";
import type { AuthError } from "@auth/errors";
import {
  createServiceClient,
  hashAdminToken,
  type RunningGrpcServer,
  type ServiceClient,
} from "@auth/grpc-kit";
import { ensureDevPki, mtlsTransport, type TlsFiles, tlsEnvironment } from "@auth/grpc-kit/dev-pki";
import { IdentityServiceService, type PasskeySettings, SecondFactorKind } from "@auth/proto/identity";
import {
  CaptchaVerdict,
  CheckOutcome,
  CheckResult,
  PasskeyCeremony,
  type ReportSecretCheckRequest,
  type ReserveSecretCheckRequest,
  type ReserveSecretCheckResponse,
  type RevokeUserSessionsRequest,
  SecretKind,
  SessionState,
} from "@auth/proto/session";
import { createLogger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { testBudgets } from "@auth/testing";
import { SoftAuthenticator } from "@auth/testing/soft-authenticator";
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { identityAccess } from "./access.js";
import {
  FakePasskeySessions,
  noCredentialChange,
  seedCompany,
  seedUser,
  startIdentityForTests,
} from "./testing.js";

type Client = ServiceClient<typeof IdentityServiceService>;
const adminToken = randomBytes(32).toString("base64url");
const holders = ["identity", "gateway", "operator"] as const;
type Holder = (typeof holders)[number];

const origin = "https://login.example.test";
const relyingParty: PasskeySettings = { rpId: "example.test", origins: [origin], allowPasswordless: true };
const clientAddress = "192.0.2.20";
/** A notice is sent in the background: the time a loaded machine may take to send it. */
const waitMs = 20_000;

/**
 * The session service's budget of guesses as identity sees it: a check is allowed (or refused,
 * when `refuse` says so), and every reservation and report is kept.
 */
const budget = {
  refuse: undefined as CheckOutcome | undefined,
  reserved: [] as ReserveSecretCheckRequest[],
  reported: [] as ReportSecretCheckRequest[],
  async reserveSecretCheck(request: ReserveSecretCheckRequest): Promise<ReserveSecretCheckResponse> {
    budget.reserved.push(request);
    return {
      outcome: budget.refuse ?? CheckOutcome.ALLOWED,
      checkId: budget.refuse ? "" : `check-${budget.reserved.length}`,
      retryAfterSeconds: budget.refuse ? 60 : 0,
      captchaRequired: false,
      credentialGeneration: "1",
    };
  },
  async reportSecretCheck(request: ReportSecretCheckRequest) {
    budget.reported.push(request);
    return { sessionEnded: false, lockedOutUserId: "" };
  },
};
const revoked: RevokeUserSessionsRequest[] = [];
const sessions = new FakePasskeySessions();
const mail = new MemoryOutbox<MailMessage>();
const dataDir = mkdtempSync(join(tmpdir(), "identity-passkeys-"));
let server: RunningGrpcServer;
const clients = {} as Record<Holder, Client>;

beforeAll(async () => {
  const pki = (await ensureDevPki(join(dataDir, "pki"), [...holders])) as Record<Holder, TlsFiles>;
  server = await startIdentityForTests({
    env: { ...tlsEnvironment(pki.identity), ADMIN_TOKEN_SHA256: hashAdminToken(adminToken) },
    session: {
      reserveSecretCheck: budget.reserveSecretCheck,
      reportSecretCheck: budget.reportSecretCheck,
      revokeUserSessions: async (request) => {
        revoked.push(request);
        return { revoked: 1 };
      },
      recordFederatedLogin: async () => ({ checkId: "federated-check" }),
      getCredentialChange: async () => noCredentialChange,
      ...sessions.calls,
    },
    logger: createLogger("identity", "silent"),
    notices: { mail },
  });
  for (const holder of holders) {
    clients[holder] = createServiceClient(IdentityServiceService, `127.0.0.1:${server.port}`, {
      deadlineMs: 10_000,
      adminToken: holder === "operator" ? adminToken : undefined,
      transport: mtlsTransport(pki[holder]),
      server: "identity",
    });
  }
}, testBudgets.pgliteOpenMs);

afterAll(async () => {
  for (const client of Object.values(clients)) client.close();
  await server.stop(100);
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  budget.refuse = undefined;
});

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: AuthError) => error.code,
  );

/** A company of its own with the test's relying party, unless the test gives its own (null: none). */
const companyWith = (passkeys: PasskeySettings | null = relyingParty) =>
  seedCompany(clients.operator, { passkeys: passkeys ?? undefined });

type Company = Awaited<ReturnType<typeof companyWith>>;
type User = Awaited<ReturnType<typeof seedUser>>;

const userOf = (company: Company) => seedUser(clients.operator, company.id);

/** Enrols a new passkey of the authenticator for the user, through an authorized session of the user's. */
async function enrol(company: Company, user: User, authenticator = new SoftAuthenticator({ origin })) {
  const sessionToken = sessions.open(company.id, user.id, SessionState.AUTHORIZED);
  const { optionsJson } = await clients.gateway.beginPasskeyRegistration({
    companyId: company.id,
    sessionToken,
  });
  const options = JSON.parse(optionsJson) as PublicKeyCredentialCreationOptionsJSON;
  const finished = await clients.gateway.finishPasskeyRegistration({
    companyId: company.id,
    sessionToken,
    responseJson: JSON.stringify(authenticator.register(options)),
  });
  if (!finished.passkey) throw new Error("the passkey was not registered");
  return { authenticator, options, finished, passkey: finished.passkey };
}

/** A login session of the user in the state, and its assertion's options (undefined when absent). */
async function loginIn(company: Company, userId: string, state: SessionState) {
  const sessionToken = sessions.open(company.id, userId, state);
  const { optionsJson } = await clients.gateway.beginPasskeyLogin({ companyId: company.id, sessionToken });
  const options =
    optionsJson === undefined
      ? undefined
      : (JSON.parse(optionsJson) as PublicKeyCredentialRequestOptionsJSON);
  return { sessionToken, options };
}

/** A login session of the user in the state whose options name a passkey to assert. */
async function offeredLogin(company: Company, userId: string, state: SessionState) {
  const { sessionToken, options } = await loginIn(company, userId, state);
  if (!options) throw new Error("no passkey offered");
  return { sessionToken, options };
}

/** The assertion's check at identity, as the gateway asks it. */
const verify = (company: Company, sessionToken: string, assertion: unknown) =>
  clients.gateway.verifyPasskey({
    companyId: company.id,
    sessionToken,
    responseJson: JSON.stringify(assertion),
    clientAddress,
  });

/** Assertions identity has verified so far. */
const verifications = async () =>
  (await metrics.secretsCompared.get()).values.find((value) => value.labels.kind === "passkey")?.value ?? 0;

/** Waits for the notices of the event to the user's address, once there are `count` of them. */
async function noticesOf(user: User, event: string, count = 1) {
  const of = () =>
    mail.messages.filter((message) => message.to === user.email && message.notification === event);
  await vi.waitFor(() => expect(of()).toHaveLength(count), { timeout: waitMs });
  return of();
}

const passkeysOf = async (company: Company, user: User) =>
  (await clients.operator.listPasskeys({ companyId: company.id, userId: user.id })).passkeys;

describe("who may call the passkey methods", () => {
  it("gives the ceremonies to the gateway, the management to the gateway and operators", () => {
    for (const method of [
      "beginPasskeyLogin",
      "verifyPasskey",
      "beginPasskeyRegistration",
      "finishPasskeyRegistration",
    ] as const)
      expect(identityAccess[method]).toEqual(["gateway"]);
    for (const method of ["listPasskeys", "renamePasskey", "removePasskey", "generateBackupCodes"] as const)
      expect(identityAccess[method]).toEqual(["gateway", "operator"]);
  });
});

describe("BeginPasskeyRegistration", () => {
  it("offers a discoverable credential of the session's user, named by the user's first login ID, without attestation", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const sessionToken = sessions.open(company.id, user.id, SessionState.AUTHORIZED);
    const { optionsJson } = await clients.gateway.beginPasskeyRegistration({
      companyId: company.id,
      sessionToken,
    });
    const options = JSON.parse(optionsJson) as PublicKeyCredentialCreationOptionsJSON;
    expect(options.rp).toEqual({ id: relyingParty.rpId, name: `Test ${company.code}` });
    // The user handle is the user's id, nothing personal.
    expect(Buffer.from(options.user.id, "base64url").toString("utf8")).toBe(user.id);
    expect(options.user.name).toBe(user.email);
    expect(options.attestation).toBe("none");
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: "required",
      userVerification: "preferred",
    });
    expect(Buffer.from(options.challenge, "base64url")).toHaveLength(32);
    expect(options.excludeCredentials).toEqual([]);
  });

  it("offers EdDSA, ES256 and RS256, whatever the runtime's WebCrypto also has (ML-DSA-44 on Node.js 24)", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const sessionToken = sessions.open(company.id, user.id, SessionState.AUTHORIZED);
    const { optionsJson } = await clients.gateway.beginPasskeyRegistration({
      companyId: company.id,
      sessionToken,
    });
    const options = JSON.parse(optionsJson) as PublicKeyCredentialCreationOptionsJSON;
    expect(options.pubKeyCredParams).toEqual([
      { alg: -8, type: "public-key" },
      { alg: -7, type: "public-key" },
      { alg: -257, type: "public-key" },
    ]);
  });

  it("excludes the user's passkeys", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { passkey, authenticator } = await enrol(company, user);
    expect(passkey.id).toBeTruthy();
    const { options } = await enrol(company, user);
    expect(options.excludeCredentials?.map((credential) => credential.id)).toEqual(
      authenticator.credentialIds,
    );
  });

  it("answers auth.passkey.invalid for a company without a relying party", async () => {
    const company = await companyWith(null);
    const user = await userOf(company);
    const sessionToken = sessions.open(company.id, user.id, SessionState.AUTHORIZED);
    expect(
      await codeOf(clients.gateway.beginPasskeyRegistration({ companyId: company.id, sessionToken })),
    ).toBe("auth.passkey.invalid");
  });

  it("needs an authorized session (the session service's rule)", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const sessionToken = sessions.open(company.id, user.id, SessionState.CHECKOTP);
    expect(
      await codeOf(clients.gateway.beginPasskeyRegistration({ companyId: company.id, sessionToken })),
    ).toBe("auth.session.invalid");
  });
});

describe("FinishPasskeyRegistration", () => {
  it("stores the credential as the session user's passkey, and tells the user", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { finished, passkey } = await enrol(company, user);
    expect(finished).toMatchObject({ userId: user.id });
    expect(passkey).toMatchObject({
      name: "Passkey",
      transports: ["internal"],
      backedUp: false,
      userVerified: true,
      cloneSuspected: false,
    });
    expect(passkey.lastUsedAt).toBeUndefined();
    expect(await passkeysOf(company, user)).toEqual([passkey]);
    await noticesOf(user, "passkey_added");
  });

  it("makes the passkey the user's first second factor (then the backup codes issued with it), and a second factor required", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    expect(user.user.authenticators?.secondFactors).toEqual([SecondFactorKind.SMS]);
    await enrol(company, user);
    const { user: after } = await clients.operator.getUser({ companyId: company.id, userId: user.id });
    expect(after?.authenticators).toMatchObject({
      secondFactors: [SecondFactorKind.PASSKEY, SecondFactorKind.BACKUP_CODES],
      secondFactorRequired: true,
      passkeyReplacesPassword: true,
    });
  });

  it("issues a user who has no backup codes the first set with the passkey, shown once; the codes work and the user is told", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { finished } = await enrol(company, user);
    expect(finished.backupCodes).toHaveLength(10);
    const ids = { companyId: company.id, userId: user.id };
    expect(await clients.operator.countBackupCodes(ids)).toEqual({ remaining: 10 });
    expect(
      await clients.gateway.useBackupCode({ ...ids, backupCode: finished.backupCodes[0] ?? "" }),
    ).toEqual({
      valid: true,
    });
    await noticesOf(user, "backup_codes_issued");
    // A second passkey finds the set: none are issued again.
    expect((await enrol(company, user)).finished.backupCodes).toEqual([]);
  });

  it("takes the name given, and issues no backup codes to a user who has some: the user's codes stay", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const ids = { companyId: company.id, userId: user.id };
    const { backupCodes: own } = await clients.operator.generateBackupCodes(ids);
    const sessionToken = sessions.open(company.id, user.id, SessionState.AUTHORIZED);
    const { optionsJson } = await clients.gateway.beginPasskeyRegistration({
      companyId: company.id,
      sessionToken,
    });
    const response = new SoftAuthenticator({ origin }).register(JSON.parse(optionsJson));
    const finished = await clients.gateway.finishPasskeyRegistration({
      companyId: company.id,
      sessionToken,
      responseJson: JSON.stringify(response),
      name: "Work laptop",
    });
    expect(finished).toMatchObject({ backupCodes: [], passkey: { name: "Work laptop" } });
    expect(await clients.gateway.useBackupCode({ ...ids, backupCode: own[0] ?? "" })).toEqual({
      valid: true,
    });
  });

  it.each([
    ["from another origin", { origin: "https://login.example-phish.test" }],
    ["for another RP ID", { rpId: "example-phish.test" }],
  ])("stores nothing for an answer %s", async (_, overrides) => {
    const company = await companyWith();
    const user = await userOf(company);
    const sessionToken = sessions.open(company.id, user.id, SessionState.AUTHORIZED);
    const { optionsJson } = await clients.gateway.beginPasskeyRegistration({
      companyId: company.id,
      sessionToken,
    });
    const response = new SoftAuthenticator({ origin }).register(JSON.parse(optionsJson), overrides);
    const finished = await clients.gateway.finishPasskeyRegistration({
      companyId: company.id,
      sessionToken,
      responseJson: JSON.stringify(response),
    });
    expect(finished).toEqual({ backupCodes: [], userId: user.id });
    expect(await passkeysOf(company, user)).toEqual([]);
  });

  it("uses the challenge once: the same answer again stores nothing", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const sessionToken = sessions.open(company.id, user.id, SessionState.AUTHORIZED);
    const { optionsJson } = await clients.gateway.beginPasskeyRegistration({
      companyId: company.id,
      sessionToken,
    });
    const responseJson = JSON.stringify(new SoftAuthenticator({ origin }).register(JSON.parse(optionsJson)));
    const first = await clients.gateway.finishPasskeyRegistration({
      companyId: company.id,
      sessionToken,
      responseJson,
    });
    const again = await clients.gateway.finishPasskeyRegistration({
      companyId: company.id,
      sessionToken,
      responseJson,
    });
    expect(first.passkey).toBeDefined();
    expect(again.passkey).toBeUndefined();
    expect(await passkeysOf(company, user)).toHaveLength(1);
  });

  it.each([
    ["no JSON", "{"],
    ["no credential", JSON.stringify({ id: "abc" })],
    ["more than 64 KiB", JSON.stringify({ padding: "x".repeat(64 * 1024) })],
  ])("refuses %s with request.validation.failed", async (_, responseJson) => {
    const company = await companyWith();
    const user = await userOf(company);
    const sessionToken = sessions.open(company.id, user.id, SessionState.AUTHORIZED);
    await clients.gateway.beginPasskeyRegistration({ companyId: company.id, sessionToken });
    expect(
      await codeOf(
        clients.gateway.finishPasskeyRegistration({ companyId: company.id, sessionToken, responseJson }),
      ),
    ).toBe("request.validation.failed");
  });

  it("refuses a name of more than 64 characters", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const sessionToken = sessions.open(company.id, user.id, SessionState.AUTHORIZED);
    const request = { companyId: company.id, sessionToken, responseJson: "{}", name: "n".repeat(65) };
    expect(await codeOf(clients.gateway.finishPasskeyRegistration(request))).toBe(
      "request.validation.failed",
    );
  });
});

describe("BeginPasskeyLogin", () => {
  it("offers the user's passkeys in checkotp, user verification preferred", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { authenticator } = await enrol(company, user);
    const { options } = await loginIn(company, user.id, SessionState.CHECKOTP);
    expect(options).toMatchObject({ rpId: relyingParty.rpId, userVerification: "preferred" });
    expect(options?.allowCredentials).toEqual([
      { id: authenticator.credentialIds[0], type: "public-key", transports: ["internal"] },
    ]);
    expect(Buffer.from(options?.challenge ?? "", "base64url")).toHaveLength(32);
  });

  it("offers them in checkpassword, user verification required, where the company lets a passkey replace the password", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    await enrol(company, user);
    const { options } = await loginIn(company, user.id, SessionState.CHECKPASSWORD);
    expect(options).toMatchObject({ userVerification: "required" });
    expect(options?.allowCredentials).toHaveLength(1);
  });

  it("offers none in checkpassword where the company does not", async () => {
    const company = await companyWith({ ...relyingParty, allowPasswordless: false });
    const user = await userOf(company);
    await enrol(company, user);
    expect((await loginIn(company, user.id, SessionState.CHECKPASSWORD)).options).toBeUndefined();
    expect((await loginIn(company, user.id, SessionState.CHECKOTP)).options).toBeDefined();
  });

  it("offers none to a user without a passkey", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    expect((await loginIn(company, user.id, SessionState.CHECKOTP)).options).toBeUndefined();
  });

  it("offers none, and asks the session service for no challenge, where the company has no relying party", async () => {
    const company = await companyWith(null);
    const user = await userOf(company);
    const before = sessions.issued.length;
    expect((await loginIn(company, user.id, SessionState.CHECKOTP)).options).toBeUndefined();
    expect(sessions.issued).toHaveLength(before);
  });

  it("offers a password-free login's session the browser's discoverable credentials, user verification required", async () => {
    const company = await companyWith();
    const { options } = await loginIn(company, "", SessionState.CHECKPASSWORD);
    expect(options).toMatchObject({ rpId: relyingParty.rpId, userVerification: "required" });
    expect(options?.allowCredentials ?? []).toEqual([]);
  });
});

describe("VerifyPasskey", () => {
  it("verifies a right assertion under the user's budget of passkeys and leaves the check for the session's move", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { authenticator, passkey } = await enrol(company, user);
    const { sessionToken, options } = await offeredLogin(company, user.id, SessionState.CHECKOTP);
    const reservedBefore = budget.reserved.length;
    const reportedBefore = budget.reported.length;
    const answer = await verify(company, sessionToken, authenticator.assert(options));
    expect(answer).toMatchObject({ valid: true, userVerified: true, user: { id: user.id } });
    expect(answer.check?.outcome).toBe(CheckOutcome.ALLOWED);
    expect(budget.reserved.slice(reservedBefore)).toEqual([
      {
        companyId: company.id,
        subject: { userId: user.id },
        kind: SecretKind.PASSKEY,
        limits: expect.objectContaining({ lockoutAfterFailures: 10 }),
        captcha: CaptchaVerdict.UNSPECIFIED,
        sessionToken,
      },
    ]);
    // The right check is reported by the move that rests on it, not here.
    expect(budget.reported.slice(reportedBefore)).toEqual([]);
    expect(sessions.proofs.at(-1)).toEqual({
      companyId: company.id,
      checkId: answer.check?.checkId,
      userVerified: true,
      backedUp: false,
    });
    const [used] = await passkeysOf(company, user);
    expect(used?.id).toBe(passkey.id);
    expect(used?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("tells a synced passkey's proof as backed up", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { authenticator } = await enrol(company, user, new SoftAuthenticator({ origin, backedUp: true }));
    const { sessionToken, options } = await offeredLogin(company, user.id, SessionState.CHECKOTP);
    const answer = await verify(company, sessionToken, authenticator.assert(options));
    expect(answer.valid).toBe(true);
    expect(sessions.proofs.at(-1)).toMatchObject({ checkId: answer.check?.checkId, backedUp: true });
  });

  it.each([
    ["from another origin", { origin: "https://login.example-phish.test" }],
    ["for another RP ID", { rpId: "example-phish.test" }],
  ])("refuses an assertion %s as a wrong answer of the user's budget", async (_, overrides) => {
    const company = await companyWith();
    const user = await userOf(company);
    const { authenticator } = await enrol(company, user);
    const { sessionToken, options } = await offeredLogin(company, user.id, SessionState.CHECKOTP);
    const answer = await verify(company, sessionToken, authenticator.assert(options, overrides));
    expect(answer).toMatchObject({ valid: false, check: { outcome: CheckOutcome.ALLOWED, checkId: "" } });
    expect(budget.reported.at(-1)).toMatchObject({ companyId: company.id, result: CheckResult.WRONG });
  });

  it("takes the challenge once: a second assertion on it finds none, and spends and verifies nothing", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { authenticator } = await enrol(company, user);
    const { sessionToken, options } = await offeredLogin(company, user.id, SessionState.CHECKOTP);
    expect((await verify(company, sessionToken, authenticator.assert(options))).valid).toBe(true);
    const [reserved, compared] = [budget.reserved.length, await verifications()];
    const again = await verify(company, sessionToken, authenticator.assert(options));
    expect(again).toEqual({ valid: false, userVerified: false });
    expect(budget.reserved).toHaveLength(reserved);
    expect(await verifications()).toBe(compared);
  });

  it("refuses an assertion without user verification in checkpassword, and takes it in checkotp", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { authenticator } = await enrol(company, user);
    const inPassword = await offeredLogin(company, user.id, SessionState.CHECKPASSWORD);
    const refused = await verify(
      company,
      inPassword.sessionToken,
      authenticator.assert(inPassword.options, { userVerified: false }),
    );
    expect(refused).toMatchObject({ valid: false, check: { checkId: "" } });
    const inOtp = await offeredLogin(company, user.id, SessionState.CHECKOTP);
    const taken = await verify(
      company,
      inOtp.sessionToken,
      authenticator.assert(inOtp.options, { userVerified: false }),
    );
    expect(taken).toMatchObject({ valid: true, userVerified: false });
    expect(sessions.proofs.at(-1)).toMatchObject({ checkId: taken.check?.checkId, userVerified: false });
  });

  it("finds the user of a password-free login's session from the credential", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { authenticator } = await enrol(company, user);
    const { sessionToken, options } = await offeredLogin(company, "", SessionState.CHECKPASSWORD);
    const answer = await verify(company, sessionToken, authenticator.assert(options));
    expect(answer).toMatchObject({ valid: true, userVerified: true, user: { id: user.id } });
    expect(budget.reserved.at(-1)).toMatchObject({ subject: { userId: user.id }, kind: SecretKind.PASSKEY });
  });

  it("refuses a password-free login's assertion without user verification", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { authenticator } = await enrol(company, user);
    const { sessionToken, options } = await offeredLogin(company, "", SessionState.CHECKPASSWORD);
    const answer = await verify(
      company,
      sessionToken,
      authenticator.assert(options, { userVerified: false }),
    );
    expect(answer.valid).toBe(false);
  });

  it("spends the session user's budget on another user's passkey, and verifies nothing", async () => {
    const company = await companyWith();
    const [user, other] = [await userOf(company), await userOf(company)];
    const { authenticator: others } = await enrol(company, other);
    await enrol(company, user);
    const { sessionToken, options } = await offeredLogin(company, user.id, SessionState.CHECKOTP);
    const compared = await verifications();
    const assertion = others.assert({ ...options, allowCredentials: [] });
    const answer = await verify(company, sessionToken, assertion);
    expect(answer).toMatchObject({ valid: false, check: { outcome: CheckOutcome.ALLOWED, checkId: "" } });
    expect(budget.reserved.at(-1)).toMatchObject({ subject: { userId: user.id }, kind: SecretKind.PASSKEY });
    expect(budget.reported.at(-1)).toMatchObject({ result: CheckResult.WRONG });
    expect(await verifications()).toBe(compared);
    expect((await passkeysOf(company, other))[0]?.lastUsedAt).toBeUndefined();
  });

  it("reserves the check before it verifies: a refused reservation verifies nothing and uses nothing", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { authenticator } = await enrol(company, user);
    const { sessionToken, options } = await offeredLogin(company, user.id, SessionState.CHECKOTP);
    budget.refuse = CheckOutcome.LOCKED_OUT;
    const compared = await verifications();
    const answer = await verify(company, sessionToken, authenticator.assert(options));
    expect(answer).toMatchObject({ valid: false, check: { outcome: CheckOutcome.LOCKED_OUT } });
    expect(await verifications()).toBe(compared);
    expect((await passkeysOf(company, user))[0]?.lastUsedAt).toBeUndefined();
  });

  it("counts each verification", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { authenticator } = await enrol(company, user);
    const compared = await verifications();
    for (const overrides of [{}, { origin: "https://elsewhere.example.test" }]) {
      const { sessionToken, options } = await offeredLogin(company, user.id, SessionState.CHECKOTP);
      await verify(company, sessionToken, authenticator.assert(options, overrides));
    }
    expect(await verifications()).toBe(compared + 2);
  });

  it("marks a credential whose counter did not grow clone-suspect: refused, the user told, and refused from then on", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { authenticator } = await enrol(company, user);
    const first = await offeredLogin(company, user.id, SessionState.CHECKOTP);
    expect(
      (await verify(company, first.sessionToken, authenticator.assert(first.options, { signCount: 5 })))
        .valid,
    ).toBe(true);
    const copy = await offeredLogin(company, user.id, SessionState.CHECKOTP);
    const cloned = await verify(
      company,
      copy.sessionToken,
      authenticator.assert(copy.options, { signCount: 5 }),
    );
    expect(cloned).toMatchObject({ valid: false, check: { checkId: "" } });
    expect(budget.reported.at(-1)).toMatchObject({ result: CheckResult.WRONG });
    await noticesOf(user, "passkey_clone_suspected");
    expect((await passkeysOf(company, user))[0]?.cloneSuspected).toBe(true);
    // No longer offered, no longer a factor of the user's, and refused with a growing counter too.
    const { user: after } = await clients.operator.getUser({ companyId: company.id, userId: user.id });
    expect(after?.authenticators?.secondFactors).not.toContain(SecondFactorKind.PASSKEY);
    expect((await loginIn(company, user.id, SessionState.CHECKOTP)).options).toBeUndefined();
    const later = sessions.open(company.id, user.id, SessionState.CHECKOTP);
    const { challenge } = await sessions.issuePasskeyChallenge({
      sessionToken: later,
      ceremony: PasskeyCeremony.LOGIN,
    });
    const assertion = authenticator.assert({ challenge, rpId: relyingParty.rpId }, { signCount: 100 });
    expect(await verify(company, later, assertion)).toMatchObject({ valid: false, userVerified: false });
    expect(budget.reported.at(-1)).toMatchObject({ result: CheckResult.WRONG });
  });

  it("accepts counters that stay zero, as synced passkeys keep them", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { authenticator } = await enrol(company, user, new SoftAuthenticator({ origin, counter: "zero" }));
    for (let round = 0; round < 2; round++) {
      const { sessionToken, options } = await offeredLogin(company, user.id, SessionState.CHECKOTP);
      expect((await verify(company, sessionToken, authenticator.assert(options))).valid).toBe(true);
    }
  });

  it("spends the session user's budget on a credential the company does not know, and verifies nothing", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    await enrol(company, user);
    const { sessionToken, options } = await offeredLogin(company, user.id, SessionState.CHECKOTP);
    // A credential made for the company's relying party whose registration never finished.
    const stranger = new SoftAuthenticator({ origin });
    const unfinished = sessions.open(company.id, user.id, SessionState.AUTHORIZED);
    const { optionsJson } = await clients.gateway.beginPasskeyRegistration({
      companyId: company.id,
      sessionToken: unfinished,
    });
    stranger.register(JSON.parse(optionsJson));
    const compared = await verifications();
    const assertion = stranger.assert({ ...options, allowCredentials: [] });
    expect(await verify(company, sessionToken, assertion)).toMatchObject({
      valid: false,
      userVerified: false,
    });
    expect(budget.reserved.at(-1)).toMatchObject({ subject: { userId: user.id }, kind: SecretKind.PASSKEY });
    expect(budget.reported.at(-1)).toMatchObject({ result: CheckResult.WRONG });
    expect(await verifications()).toBe(compared);
  });

  it("reserves nothing for a password-free login's credential the company does not know: it names no user", async () => {
    const company = await companyWith();
    const sessionToken = sessions.open(company.id, "", SessionState.CHECKPASSWORD);
    const { challenge } = await sessions.issuePasskeyChallenge({
      sessionToken,
      ceremony: PasskeyCeremony.LOGIN,
    });
    const stranger = new SoftAuthenticator({ origin });
    const unfinished = sessions.open(company.id, (await userOf(company)).id, SessionState.AUTHORIZED);
    const { optionsJson } = await clients.gateway.beginPasskeyRegistration({
      companyId: company.id,
      sessionToken: unfinished,
    });
    stranger.register(JSON.parse(optionsJson));
    const reserved = budget.reserved.length;
    const assertion = stranger.assert({ challenge, rpId: relyingParty.rpId });
    expect(await verify(company, sessionToken, assertion)).toEqual({ valid: false, userVerified: false });
    expect(budget.reserved).toHaveLength(reserved);
  });

  it("refuses an answer that is no credential with request.validation.failed", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const sessionToken = sessions.open(company.id, user.id, SessionState.CHECKOTP);
    for (const responseJson of [
      "not json",
      JSON.stringify({ id: "x", type: "public-key" }),
      "x".repeat(16 * 1024 + 1),
    ])
      expect(
        await codeOf(
          clients.gateway.verifyPasskey({ companyId: company.id, sessionToken, responseJson, clientAddress }),
        ),
      ).toBe("request.validation.failed");
  });
});

describe("ListPasskeys, RenamePasskey, RemovePasskey", () => {
  it("lists a user's passkeys oldest first, without their keys", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const first = (await enrol(company, user)).passkey;
    const second = (await enrol(company, user)).passkey;
    const listed = (await clients.gateway.listPasskeys({ companyId: company.id, userId: user.id })).passkeys;
    expect(listed.map((passkey) => passkey.id)).toEqual([first.id, second.id]);
    expect(listed[0]).not.toHaveProperty("publicKey");
    expect(listed[0]).not.toHaveProperty("credentialId");
  });

  it("renames a passkey of the user and tells the user; another user's is not renamed", async () => {
    const company = await companyWith();
    const [user, other] = [await userOf(company), await userOf(company)];
    const { passkey } = await enrol(company, user);
    const rename = (userId: string, name: string) =>
      clients.gateway.renamePasskey({ companyId: company.id, userId, passkeyId: passkey.id, name });
    expect(await rename(other.id, "Not mine")).toEqual({ renamed: false });
    expect(await rename(user.id, "Phone")).toEqual({ renamed: true });
    expect((await passkeysOf(company, user))[0]?.name).toBe("Phone");
    await noticesOf(user, "passkey_renamed");
  });

  it.each([
    ["empty", ""],
    ["longer than 64 characters", "n".repeat(65)],
    ["with a control character", "Phone\nof mine"],
  ])("refuses a name %s", async (_, name) => {
    const company = await companyWith();
    const user = await userOf(company);
    const { passkey } = await enrol(company, user);
    const request = { companyId: company.id, userId: user.id, passkeyId: passkey.id, name };
    expect(await codeOf(clients.gateway.renamePasskey(request))).toBe("request.validation.failed");
  });

  it("removes the user's own passkey for the gateway, telling the user and ending no session", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { passkey } = await enrol(company, user);
    const revokedBefore = revoked.length;
    const request = { companyId: company.id, userId: user.id, passkeyId: passkey.id };
    expect(await clients.gateway.removePasskey(request)).toEqual({ removed: true });
    expect(await clients.gateway.removePasskey(request)).toEqual({ removed: false });
    expect(await passkeysOf(company, user)).toEqual([]);
    expect(revoked).toHaveLength(revokedBefore);
    await noticesOf(user, "passkey_removed");
  });

  it("ends every session of the user when an operator removes a passkey", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { passkey } = await enrol(company, user);
    const request = { companyId: company.id, userId: user.id, passkeyId: passkey.id };
    expect(await clients.operator.removePasskey(request)).toEqual({ removed: true });
    expect(revoked.at(-1)).toEqual({ companyId: company.id, userId: user.id });
  });
});

describe("CompanyPolicy.passkeys", () => {
  const policyCode = (passkeys: PasskeySettings) => codeOf(seedCompany(clients.operator, { passkeys }));

  it("is off by default", async () => {
    const company = await seedCompany(clients.operator);
    expect(company.policy.passkeys).toBeUndefined();
  });

  it.each([
    ["a host and its origins", relyingParty],
    [
      "origins under the host, with ports",
      { ...relyingParty, origins: [origin, "https://example.test:8443"] },
    ],
    [
      "localhost over http (the embedded demo)",
      { rpId: "localhost", origins: ["http://localhost:8081"], allowPasswordless: true },
    ],
  ])("keeps a valid relying party: %s", async (_, passkeys) => {
    const company = await companyWith(passkeys);
    expect(company.policy.passkeys).toEqual(passkeys);
  });

  it.each([
    [
      "an IP address as RP ID",
      { rpId: "192.0.2.1", origins: ["https://192.0.2.1"], allowPasswordless: false },
    ],
    ["an RP ID with a port", { rpId: "example.test:8443", origins: [origin], allowPasswordless: false }],
    ["an RP ID with a scheme", { rpId: "https://example.test", origins: [origin], allowPasswordless: false }],
    ["an RP ID without origins", { rpId: "example.test", origins: [], allowPasswordless: false }],
    ["origins without an RP ID", { rpId: "", origins: [origin], allowPasswordless: false }],
    ["an origin of another host", { ...relyingParty, origins: ["https://example-phish.test"] }],
    ["an origin over http", { ...relyingParty, origins: ["http://login.example.test"] }],
    ["an origin with a path", { ...relyingParty, origins: [`${origin}/login`] }],
    ["an origin that only ends like the host", { ...relyingParty, origins: ["https://badexample.test"] }],
    ["passwordless without an RP ID", { rpId: "", origins: [], allowPasswordless: true }],
  ])("refuses %s with request.validation.failed", async (_, passkeys) => {
    expect(await policyCode(passkeys)).toBe("request.validation.failed");
  });
});
