import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { MemoryOutbox } from "@auth/delivery";
import { type AuthError, errorCodes } from "@auth/errors";
import { systemOrigin } from "@auth/events";
import {
  companyPolicy,
  createServiceClient,
  defaultCompanyLimits,
  hashAdminToken,
  type RunningGrpcServer,
  type ServiceClient,
  smsSettings,
  startGrpcServer,
} from "@auth/grpc-kit";
import { type OpenedDatabase, openDatabase } from "@auth/pg";
import {
  CaptchaProvider,
  type Company,
  type CompanyPolicy,
  IdentityServiceService,
  type ImportedUser,
  ImportOutcome,
  LoginIdKind,
  type OAuthProviderSettings,
  PasswordProblem,
  ProviderKind,
  SecondFactorKind,
  UserStatus,
} from "@auth/proto/identity";
import { OtpPurpose, SmsProvider, type SmsSettings } from "@auth/proto/otp";
import {
  CaptchaVerdict,
  CheckOutcome,
  CheckResult,
  type GetCredentialChangeRequest,
  type GetCredentialChangeResponse,
  type ReportSecretCheckRequest,
  type ReserveSecretCheckRequest,
  type ReserveSecretCheckResponse,
  type RevokeUserSessionsRequest,
  SecretKind,
  SessionState,
} from "@auth/proto/session";
import { createLogger, type Logger, SecretBox, TtlCache } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { testBudgets } from "@auth/testing";
import { parseOptions } from "@node-rs/argon2";
import { and, eq, like, sql } from "drizzle-orm";
import { generate } from "otplib";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { identityAccess } from "./access.js";
import { normalizeBackupCode } from "./backup-codes.js";
import { captchaCheck } from "./captcha/captcha-check.js";
import { importedFormats, importedHashesOf } from "./imported-hashes/samples.testing.js";
import { OAuthExchange } from "./oauth/exchange.js";
import { owaspMinimum, PasswordHasher } from "./passwords.js";
import { type IdentitySchema, schema } from "./schema.js";
import { identityService } from "./server.js";
import { IdentityStore } from "./store/identity-store.js";
import { claimedCredentialChange, FakePasskeySessions, noCredentialChange } from "./testing.js";

type Client = ServiceClient<typeof IdentityServiceService>;
const logger = pino({ level: "silent" });
const adminToken = "admin-token-for-the-identity-tests-0123456789";
const weaker = { memoryCost: 8_192, timeCost: 1, parallelism: 1 };
// Both servers share the database, and so the key its secrets are sealed with.
const secrets = new SecretBox(randomBytes(32));

const clientAddress = "192.0.2.10";

/**
 * The session service's budget of guesses as identity sees it: a check is allowed (or refused, when
 * `refuse` says so), and every reservation and report is kept. The budget itself is the session
 * service's, tested there and with the flows (gateway/src/flow-tests).
 */
const budget = {
  refuse: undefined as CheckOutcome | undefined,
  reserved: [] as ReserveSecretCheckRequest[],
  reported: [] as ReportSecretCheckRequest[],
  async reserveSecretCheck(request: ReserveSecretCheckRequest): Promise<ReserveSecretCheckResponse> {
    budget.reserved.push(request);
    return budget.refuse
      ? {
          outcome: budget.refuse,
          checkId: "",
          retryAfterSeconds: 60,
          captchaRequired: true,
          credentialGeneration: "",
        }
      : {
          outcome: CheckOutcome.ALLOWED,
          checkId: `check-${budget.reserved.length}`,
          retryAfterSeconds: 0,
          captchaRequired: false,
          credentialGeneration: "1",
        };
  },
  async reportSecretCheck(request: ReportSecretCheckRequest) {
    budget.reported.push(request);
    return { sessionEnded: false, lockedOutUserId: "" };
  },
};

type SessionOfChange = Partial<Pick<GetCredentialChangeResponse, "state" | "passwordChecked">>;

/**
 * The session service as identity asks it whose password change a session may make
 * (GetCredentialChange): the tokens `claim` names are claimed for their user, those `open` names
 * are not yet; every question is kept.
 */
const credentialChanges = {
  sessions: new Map<string, GetCredentialChangeResponse>(),
  asked: [] as GetCredentialChangeRequest[],
  /** A session of the user, by default in setpassword after a check of the password. */
  open: (companyId: string, userId: string, session: SessionOfChange = {}) =>
    credentialChanges.add({ companyId, userId }, session, false),
  claim: (companyId: string, userId: string, session: SessionOfChange = {}) =>
    credentialChanges.add({ companyId, userId }, session, true),
  add(of: { companyId: string; userId: string }, session: SessionOfChange, claimed: boolean): string {
    const sessionToken = `session-${randomBytes(8).toString("hex")}`;
    const change = claimedCredentialChange(sessionToken, of, session);
    credentialChanges.sessions.set(sessionToken, claimed ? change : { ...change, claimed, claimId: "" });
    return sessionToken;
  },
  async getCredentialChange(request: GetCredentialChangeRequest): Promise<GetCredentialChangeResponse> {
    credentialChanges.asked.push(request);
    return credentialChanges.sessions.get(request.sessionToken) ?? noCredentialChange;
  },
};

/** The session service as identity asks it to end a user's sessions: every request is kept. */
const userSessions = {
  revoked: [] as RevokeUserSessionsRequest[],
  async revokeUserSessions(request: RevokeUserSessionsRequest) {
    userSessions.revoked.push(request);
    return { revoked: 1 };
  },
};

let database: OpenedDatabase<IdentitySchema>;
const servers: RunningGrpcServer[] = [];
const clients: Client[] = [];
let identity: Client;
let weakIdentity: Client;

/**
 * The service's rules, over plain text: who may call what over mutual TLS is the access table's
 * business, tested on real ports for every method in test-e2e/src/trust.test.ts.
 */
async function serve(hasher: PasswordHasher, log: Logger = logger): Promise<Client> {
  const server = await startGrpcServer({
    host: "127.0.0.1",
    port: 0,
    transport: { kind: "plaintext" },
    logger: log,
    services: [
      identityService(
        {
          store: new IdentityStore(database.db),
          hasher,
          secrets,
          oauth: new OAuthExchange({ allowInsecureHttp: true, timeoutSeconds: 1, cacheMs: 0 }),
          captcha: captchaCheck({
            allowDev: true,
            timeoutMs: 5_000,
            logger: createLogger("identity", "silent"),
          }),
          session: {
            reserveSecretCheck: budget.reserveSecretCheck,
            reportSecretCheck: budget.reportSecretCheck,
            revokeUserSessions: userSessions.revokeUserSessions,
            recordFederatedLogin: async () => ({ checkId: "federated-check" }),
            ...new FakePasskeySessions().calls,
            getCredentialChange: credentialChanges.getCredentialChange,
          },
          adminTokenSha256: hashAdminToken(adminToken),
          companies: new TtlCache(0),
          // Kept for the test file's run: a login ID given to another user is compared under the new one's budget all the same.
          loginIdSubjects: new TtlCache(600_000),
          notices: {
            mail: new MemoryOutbox(),
            sms: new MemoryOutbox(),
            smtpTimeoutMs: 1_000,
            smsHttp: { timeoutMs: 1_000, retries: 0 },
          },
        },
        log,
      ),
    ],
  });
  servers.push(server);
  const client = createServiceClient(IdentityServiceService, `127.0.0.1:${server.port}`, {
    deadlineMs: 5_000,
    adminToken,
    transport: { kind: "plaintext" },
    server: "identity",
  });
  clients.push(client);
  return client;
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: AuthError) => error.code,
  );
/** A code of the secret for a step after every one used so far (the next step's: ±1 allows it). */
const nextCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
/** A code that is not this one. */
const otherThan = (code: string) => (Number(code) ^ 1).toString().padStart(6, "0");
let sequence = 0;
const code = () => `c${Date.now().toString(36)}${++sequence}`;
const newUser = (company: Company, overrides = {}) => ({
  companyId: company.id,
  role: "customer",
  profileMnemocode: `P-${++sequence}`,
  status: UserStatus.ACTIVE,
  secondFactorRequired: false,
  passwordChangeRequired: false,
  ...overrides,
});

beforeAll(async () => {
  database = await openDatabase({
    schema,
    migrationsFolder: fileURLToPath(new URL("../drizzle", import.meta.url)),
  });
  identity = await serve(new PasswordHasher(owaspMinimum));
  weakIdentity = await serve(new PasswordHasher(weaker));
}, testBudgets.pgliteOpenMs);

afterAll(async () => {
  for (const client of clients) client.close();
  await Promise.all(servers.map((server) => server.stop(100)));
  await database.close();
});

describe("CreateCompany", () => {
  it("fills the policy defaults of docs/api-contract.md into the policy", async () => {
    const { company } = await identity.createCompany({ code: code(), name: "Acme" });
    expect(company?.policy).toMatchObject({
      captchaAfterFailures: 3,
      lockoutAfterFailures: 10,
      failureWindowSeconds: 900,
      defaultPhoneRegion: "US",
    });
  });

  it.each([
    ["a code that is no URL path segment", { code: "Bad Code" }],
    ["an empty name", { name: "" }],
    ["a password regex that does not compile", { policy: companyPolicy({ passwordRegex: "(" }) }],
    ["an unknown phone region", { policy: companyPolicy({ defaultPhoneRegion: "XX" }) }],
    [
      "a captcha provider without its secret",
      { policy: companyPolicy({ captcha: { provider: CaptchaProvider.TURNSTILE, secret: "" } }) },
    ],
    ["a least password length below 15", { policy: companyPolicy({ minPasswordLength: 12 }) }],
    [
      "a least password length with a second factor below 8",
      { policy: companyPolicy({ minPasswordLengthWithSecondFactor: 6 }) },
    ],
  ])("refuses %s with request.validation.failed", async (_, overrides) => {
    const request = { code: code(), name: "Acme", ...overrides } as Parameters<Client["createCompany"]>[0];
    expect(await codeOf(identity.createCompany(request))).toBe("request.validation.failed");
  });

  it("refuses a taken code with resource.exists", async () => {
    const taken = code();
    await identity.createCompany({ code: taken, name: "One" });
    expect(await codeOf(identity.createCompany({ code: taken, name: "Two" }))).toBe("resource.exists");
  });
});

describe("UpdateCompany", () => {
  it("suspends a company and replaces its policy", async () => {
    const { company } = await identity.createCompany({ code: code(), name: "Acme" });
    if (!company) throw new Error("no company");
    const { company: updated } = await identity.updateCompany({
      companyId: company.id,
      suspended: true,
      policy: companyPolicy({ twoFactorRoles: ["admin"], defaultPhoneRegion: "GB", captchaAfterFailures: 5 }),
    });
    expect(updated).toMatchObject({ suspended: true, name: "Acme" });
    expect(updated?.policy).toMatchObject({
      twoFactorRoles: ["admin"],
      defaultPhoneRegion: "GB",
      captchaAfterFailures: 5,
      lockoutAfterFailures: 10,
    });
  });

  it("answers resource.notfound for an unknown company", async () => {
    expect(
      await codeOf(
        identity.updateCompany({ companyId: "00000000-0000-4000-8000-000000000000", suspended: true }),
      ),
    ).toBe("resource.notfound");
  });
});

describe("API keys", () => {
  it("authenticate for their own company only", async () => {
    const { company } = await identity.createCompany({ code: code(), name: "A" });
    const { company: other } = await identity.createCompany({ code: code(), name: "B" });
    if (!company || !other) throw new Error("no company");
    const { apiKey } = await identity.createApiKey({ companyId: company.id, label: "" });
    expect(apiKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await identity.authenticateApiKey({ companyCode: company.code, apiKey })).company?.id).toBe(
      company.id,
    );
    expect(await codeOf(identity.authenticateApiKey({ companyCode: other.code, apiKey }))).toBe(
      "auth.apikey.invalid",
    );
    expect(
      await codeOf(identity.authenticateApiKey({ companyCode: company.code, apiKey: `${apiKey}x` })),
    ).toBe("auth.apikey.invalid");
  });

  it("refuses a chosen key shorter than 24 characters", async () => {
    const { company } = await identity.createCompany({ code: code(), name: "A" });
    expect(
      await codeOf(identity.createApiKey({ companyId: company?.id ?? "", apiKey: "short", label: "" })),
    ).toBe("request.validation.failed");
  });
});

describe("CreateUser", () => {
  let company: Company;
  beforeAll(async () => {
    company = (await identity.createCompany({ code: code(), name: "Users" })).company as Company;
  });

  it("stores login IDs normalised", async () => {
    const { user } = await identity.createUser(
      newUser(company, {
        loginName: " Ann.Smith ",
        email: "Ann@Example.com",
        phone: "(201) 555-0123",
        password: "password-1",
      }),
    );
    expect(user).toMatchObject({
      loginName: "ann.smith",
      email: "ann@example.com",
      phone: "+12015550123",
      hasPassword: true,
    });
  });

  it.each([
    ["neither a password nor a phone", { loginName: "nobody" }],
    ["an invalid phone", { phone: "12", password: "password-1" }],
    ["an invalid e-mail", { email: "not-an-email", password: "password-1" }],
    ["a password of fewer than 8 characters", { password: "short", loginName: "shorty" }],
    ["a company id that is no UUID", { companyId: "acme", password: "password-1" }],
  ])("refuses %s with request.validation.failed", async (_, overrides) => {
    expect(await codeOf(identity.createUser(newUser(company, overrides)))).toBe("request.validation.failed");
  });
});

describe("control characters in text fields", () => {
  const lines: string[] = [];
  let logged: Client;
  let company: Company;
  let userId: string;
  const withNul = "ann\u0000@example.com";
  beforeAll(async () => {
    logged = await serve(
      new PasswordHasher(owaspMinimum),
      createLogger("identity", "debug", { write: (line: string) => lines.push(line) }),
    );
    company = (await logged.createCompany({ code: code(), name: "Text" })).company as Company;
    const { user } = await logged.createUser(newUser(company, { loginName: "ann", password: "password-1" }));
    userId = user?.id ?? "";
  });

  it("are request.validation.failed, INVALID_ARGUMENT on the wire", () => {
    expect(errorCodes["request.validation.failed"].grpc).toBe(3); // grpc-js status.INVALID_ARGUMENT
  });

  it("refuse a NUL in a login ID before PostgreSQL sees it, and log no login ID", async () => {
    expect(await codeOf(logged.findUser({ companyId: company.id, loginId: withNul }))).toBe(
      "request.validation.failed",
    );
    expect(
      await codeOf(
        logged.verifyCredentials({
          companyId: company.id,
          loginId: withNul,
          password: "password-1",
          clientAddress,
        }),
      ),
    ).toBe("request.validation.failed");
    expect(
      await codeOf(logged.createUser(newUser(company, { loginName: withNul, password: "password-1" }))),
    ).toBe("request.validation.failed");
    const log = lines.join("");
    expect(log).toContain("loginId: must not contain control characters");
    expect(log).not.toContain("example.com");
    expect(log).not.toMatch(/Failed query|call failed/);
  });

  it.each([
    ["U+0001 in a login ID", () => logged.findUser({ companyId: company.id, loginId: "ann\u0001" })],
    ["DEL in a login ID", () => logged.findUser({ companyId: company.id, loginId: "ann\u007f" })],
    [
      "a TAB in a password to check",
      () => logged.verifyPassword({ companyId: company.id, userId, password: "password-1\t", clientAddress }),
    ],
    [
      "a NUL in a new password",
      () =>
        logged.setPassword({
          companyId: company.id,
          userId,
          newPassword: "password\u0000-2",
          validateOnly: false,
        }),
    ],
    [
      "a line feed in a control answer",
      () => logged.verifyControlAnswer({ companyId: company.id, userId, answer: "a\nb" }),
    ],
    [
      "a NUL in a backup code",
      () => logged.useBackupCode({ companyId: company.id, userId, backupCode: "AAAA\u0000" }),
    ],
    [
      "an ESC in a password an administrator sets",
      () => logged.updateUser({ companyId: company.id, userId, password: "password-\u001b3" }),
    ],
    [
      "a NUL in a policy's text, where other control characters may be",
      () =>
        logged.updateCompany({
          companyId: company.id,
          policy: companyPolicy({ passwordRegexDescription: "8 characters\u0000" }),
        }),
    ],
  ])("refuse %s with request.validation.failed", async (_, send) => {
    expect(await codeOf(send())).toBe("request.validation.failed");
  });

  it("leave the line breaks of a policy's mail template alone", async () => {
    const bodyTemplate = "Hello,\r\n\r\nto set a new password, follow {link}\n\tThe team";
    const { company: updated } = await logged.updateCompany({
      companyId: company.id,
      policy: companyPolicy({ mail: { smtpUrl: "", from: "", bodyTemplate } }),
    });
    expect(updated?.policy?.mail?.bodyTemplate).toBe(bodyTemplate);
  });
});

describe("FindUser", () => {
  it("gives the normalised login ID whether or not a user has it", async () => {
    const { company } = await identity.createCompany({ code: code(), name: "Find" });
    const found = await identity.findUser({ companyId: company?.id ?? "", loginId: " Nobody@Example.COM " });
    expect(found).toEqual({ normalizedLoginId: "nobody@example.com", user: undefined });
  });

  it("does not find a user by a kind of login ID the role may not use", async () => {
    const { company } = await identity.createCompany({
      code: code(),
      name: "Kinds",
      policy: companyPolicy({ loginIdKindsByRole: { staff: { kinds: [LoginIdKind.EMAIL] } } }),
    });
    if (!company) throw new Error("no company");
    await identity.createUser(
      newUser(company, { role: "staff", loginName: "sam", email: "sam@example.com", password: "password-1" }),
    );
    expect((await identity.findUser({ companyId: company.id, loginId: "sam" })).user).toBeUndefined();
    expect(
      (await identity.findUser({ companyId: company.id, loginId: "sam@example.com" })).user?.loginName,
    ).toBe("sam");
  });
});

describe("ImportUsers", () => {
  let company: Company;
  beforeAll(async () => {
    company = (await identity.createCompany({ code: code(), name: "Imports" })).company as Company;
  });

  const imported = (externalId: string, overrides: Partial<ImportedUser> = {}): ImportedUser => ({
    externalId,
    role: "customer",
    profileMnemocode: `P-${++sequence}`,
    loginName: `imported-${externalId}`,
    status: UserStatus.ACTIVE,
    secondFactorRequired: false,
    passwordChangeRequired: false,
    ...overrides,
  });
  const outcomesOf = async (users: ImportedUser[]) =>
    (await identity.importUsers({ companyId: company.id, users })).results.map(
      ({ externalId, outcome, errorCode, detail }) => ({ externalId, outcome, errorCode, detail }),
    );
  const created = (externalId: string) => failed(externalId, "", "", ImportOutcome.CREATED);
  const failed = (externalId: string, errorCode: string, detail: string, outcome = ImportOutcome.FAILED) => ({
    externalId,
    outcome,
    errorCode,
    detail,
  });

  it("answers each user in order: one bad user fails alone, with the reason", async () => {
    const hashes = await importedHashesOf("imported-password-1");
    expect(
      await outcomesOf([
        imported("a-1", { passwordHash: hashes.bcrypt }),
        imported("a-2", { passwordHash: "{SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=" }),
        imported("a-3", { password: "password-1" }),
        imported("a-4", { passwordHash: "$2b$16$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW" }),
        imported("a-5", { password: "password-1", passwordHash: hashes.pbkdf2Django }),
        imported("a-6", { loginName: "imported-a-1", passwordHash: hashes.scryptWerkzeug }),
        imported("", { passwordHash: hashes.argon2i }),
        imported("a-7", { loginName: undefined, email: "not-an-email", passwordHash: hashes.argon2i }),
        imported("a-8", { loginName: "nobody-without-password" }),
      ]),
    ).toEqual([
      created("a-1"),
      failed("a-2", "request.validation.failed", "password_hash: unknown format"),
      created("a-3"),
      failed("a-4", "request.validation.failed", "password_hash: bcrypt: cost 16 is outside 4 to 15"),
      failed("a-5", "request.validation.failed", "password_hash: give a password or its hash, not both"),
      failed(
        "a-6",
        "resource.exists",
        "a user with this login name, phone, e-mail or profile already exists",
      ),
      failed("", "request.validation.failed", "external_id: is required"),
      failed("a-7", "request.validation.failed", "email: must be an e-mail address"),
      failed(
        "a-8",
        "request.validation.failed",
        "a user needs a password or a phone to receive one-time passwords",
      ),
    ]);
  });

  it("is idempotent by external id: a re-run skips every user it created and changes nothing", async () => {
    const hashes = await importedHashesOf("imported-password-2");
    const batch = [
      imported("b-1", { passwordHash: hashes.pbkdf2Phc }),
      imported("b-2", { passwordHash: hashes.scryptPasslib, passwordChangeRequired: true }),
    ];
    const first = await identity.importUsers({ companyId: company.id, users: batch });
    expect(first.results.map((result) => result.outcome)).toEqual([
      ImportOutcome.CREATED,
      ImportOutcome.CREATED,
    ]);
    const again = await identity.importUsers({
      companyId: company.id,
      users: batch.map((user) => ({ ...user, role: "employee", profileMnemocode: `P-${++sequence}` })),
    });
    expect(again.results.map(({ outcome, userId }) => ({ outcome, userId }))).toEqual(
      first.results.map(({ userId }) => ({ outcome: ImportOutcome.SKIPPED, userId })),
    );
    const { user } = await identity.getUser({
      companyId: company.id,
      userId: first.results[1]?.userId ?? "",
    });
    expect(user).toMatchObject({
      externalId: "b-2",
      role: "customer",
      hasPassword: true,
      passwordChangeRequired: true,
    });
  });

  it("skips a user given twice in one batch, as the second time", async () => {
    const results = await outcomesOf([
      imported("c-1", { password: "password-1" }),
      imported("c-1", { password: "password-1", loginName: "imported-c-1-again" }),
    ]);
    expect(results.map((result) => result.outcome)).toEqual([ImportOutcome.CREATED, ImportOutcome.SKIPPED]);
  });

  it("creates a batch's new users in one transaction, not one per user, and still answers the conflicting ones on their own", async () => {
    const { bcrypt } = await importedHashesOf("imported-password-3");
    const batch = Array.from({ length: 20 }, (_, index) => imported(`e-${index}`, { passwordHash: bcrypt }));
    batch.push(imported("e-taken", { loginName: "imported-e-3", passwordHash: bcrypt }));
    const results = await outcomesOf(batch);
    expect(results.map((result) => result.outcome)).toEqual([
      ...batch.slice(0, -1).map(() => ImportOutcome.CREATED),
      ImportOutcome.FAILED,
    ]);
    // Rows written by one transaction carry its id (xmin).
    const [{ transactions } = { transactions: 0 }] = await database.db
      .select({ transactions: sql<number>`count(distinct ${schema.users}.xmin::text)::int` })
      .from(schema.users)
      .where(and(eq(schema.users.companyId, company.id), like(schema.users.externalId, "e-%")));
    expect(transactions).toBe(1);
  });

  it("tries each user of the batch alone when PostgreSQL aborts the batch's transaction to break a deadlock", async () => {
    const deadlock = Object.assign(new Error("deadlock detected"), { code: "40P01" });
    const together = vi
      .spyOn(IdentityStore.prototype, "createUsersWithoutConflict")
      .mockRejectedValueOnce(deadlock);
    try {
      const { bcrypt } = await importedHashesOf("imported-password-4");
      expect(
        await outcomesOf([
          imported("f-1", { passwordHash: bcrypt }),
          imported("f-2", { passwordHash: bcrypt }),
          imported("f-3", { loginName: "imported-f-1", passwordHash: bcrypt }),
        ]),
      ).toEqual([
        created("f-1"),
        created("f-2"),
        failed(
          "f-3",
          "resource.exists",
          "a user with this login name, phone, e-mail or profile already exists",
        ),
      ]);
      expect(together).toHaveBeenCalledTimes(1);
    } finally {
      together.mockRestore();
    }
  });

  it("refuses a batch of more than 500 users, or none, as a whole", async () => {
    const many = Array.from({ length: 501 }, (_, index) =>
      imported(`many-${index}`, { password: "password-1" }),
    );
    expect(await codeOf(identity.importUsers({ companyId: company.id, users: many }))).toBe(
      "request.validation.failed",
    );
    expect(await codeOf(identity.importUsers({ companyId: company.id, users: [] }))).toBe(
      "request.validation.failed",
    );
  });

  it("is an operator's call only", async () => {
    expect(identityAccess.importUsers).toEqual(["operator"]);
    const anonymous = createServiceClient(IdentityServiceService, `127.0.0.1:${servers[0]?.port}`, {
      deadlineMs: 5_000,
      transport: { kind: "plaintext" },
      server: "identity",
    });
    clients.push(anonymous);
    expect(
      await codeOf(
        anonymous.importUsers({
          companyId: company.id,
          users: [imported("d-1", { password: "password-1" })],
        }),
      ),
    ).toBe("admin.unauthenticated");
  });
});

describe("imported password hashes at the first login (docs/decisions.md, Imported password hashes)", () => {
  let company: Company;
  let hashes: Awaited<ReturnType<typeof importedHashesOf>>;
  const password = "cafe\u0301-imported-1";
  beforeAll(async () => {
    company = (await identity.createCompany({ code: code(), name: "Imported logins" })).company as Company;
    hashes = await importedHashesOf(password);
  });

  it.each(importedFormats)(
    "%s: verified in its own scheme, then replaced by argon2id; the password still works, the old hash is gone",
    async (format) => {
      const { results } = await identity.importUsers({
        companyId: company.id,
        users: [
          {
            externalId: `login-${format}`,
            role: "customer",
            profileMnemocode: `P-${++sequence}`,
            loginName: `login-${format}`,
            passwordHash: hashes[format],
            status: UserStatus.ACTIVE,
            secondFactorRequired: false,
            passwordChangeRequired: false,
          },
        ],
      });
      const userId = results[0]?.userId ?? "";
      const store = new IdentityStore(database.db);
      const verify = (typed: string) =>
        identity.verifyPassword({ companyId: company.id, userId, password: typed, clientAddress });
      expect((await verify(`${password}x`)).valid).toBe(false);
      expect((await store.findUser(company.id, userId))?.passwordHash).toBe(hashes[format]);
      expect((await verify(password)).valid).toBe(true);
      const after = await store.findUser(company.id, userId);
      expect(after?.passwordHash).toMatch(/^\$argon2id\$/);
      expect(after?.passwordNfkc).toBe(true);
      expect(after?.passwordHash).not.toBe(hashes[format]);
      expect((await verify(password)).valid).toBe(true);
      expect(
        (
          await identity.verifyCredentials({
            companyId: company.id,
            loginId: `login-${format}`,
            password,
            clientAddress,
          })
        ).user?.id,
      ).toBe(userId);
    },
  );
});

describe("password checks", () => {
  let company: Company;
  beforeAll(async () => {
    company = (await identity.createCompany({ code: code(), name: "Passwords" })).company as Company;
  });

  it("replace a hash made with weaker parameters after a successful login", async () => {
    const { user } = await weakIdentity.createUser(
      newUser(company, { loginName: "weak", password: "password-1" }),
    );
    if (!user) throw new Error("no user");
    const stored = async () =>
      (await new IdentityStore(database.db).findUser(company.id, user.id))?.passwordHash ?? "";
    expect(parseOptions(await stored()).memoryCost).toBe(weaker.memoryCost);
    expect(
      (
        await identity.verifyPassword({
          companyId: company.id,
          userId: user.id,
          password: "password-1",
          clientAddress,
        })
      ).valid,
    ).toBe(true);
    expect(parseOptions(await stored()).memoryCost).toBe(owaspMinimum.memoryCost);
    expect(
      (
        await identity.verifyPassword({
          companyId: company.id,
          userId: user.id,
          password: "password-1",
          clientAddress,
        })
      ).valid,
    ).toBe(true);
  });

  it("hash the NFKC form: a password typed in another composition verifies", async () => {
    // "é" precomposed (NFC) when set, "e" and a combining accent (NFD) when typed.
    const { user } = await identity.createUser(
      newUser(company, { loginName: "rene", password: "caf\u00e9-au-lait-1" }),
    );
    const verdict = await identity.verifyPassword({
      companyId: company.id,
      userId: user?.id ?? "",
      password: "cafe\u0301-au-lait-1",
      clientAddress,
    });
    expect(verdict.valid).toBe(true);
  });

  it("verify a hash made before normalisation as typed, and replace it by one of the NFKC form", async () => {
    const { user } = await identity.createUser(
      newUser(company, { loginName: "legacy", password: "placeholder-1" }),
    );
    if (!user) throw new Error("no user");
    const store = new IdentityStore(database.db);
    const typed = "cafe\u0301-au-lait-2";
    // A row as it was before normalisation: the hash of the password as typed.
    await database.db
      .update(schema.users)
      .set({ passwordHash: await new PasswordHasher(owaspMinimum).hash(typed), passwordNfkc: false })
      .where(eq(schema.users.id, user.id));
    const verify = (password: string) =>
      identity.verifyPassword({ companyId: company.id, userId: user.id, password, clientAddress });
    expect((await verify("caf\u00e9-au-lait-2")).valid).toBe(false);
    expect((await verify(typed)).valid).toBe(true);
    expect((await store.findUser(company.id, user.id))?.passwordNfkc).toBe(true);
    expect((await verify("caf\u00e9-au-lait-2")).valid).toBe(true);
    expect((await verify(typed)).valid).toBe(true);
  });

  it("compare exactly one hash per check, for a legacy hash, a wrong password and an unknown user alike", async () => {
    const hasher = new PasswordHasher(owaspMinimum);
    const counted = await serve(hasher);
    const verifications = vi.spyOn(hasher, "verify");
    const { user } = await counted.createUser(
      newUser(company, { loginName: "counted", password: "a-long-passphrase-1" }),
    );
    if (!user) throw new Error("no user");
    await database.db.update(schema.users).set({ passwordNfkc: false }).where(eq(schema.users.id, user.id));
    for (const password of ["a-long-passphrase-1", "a-long-passphrase-2"]) {
      verifications.mockClear();
      await counted.verifyPassword({ companyId: company.id, userId: user.id, password, clientAddress });
      expect(verifications).toHaveBeenCalledTimes(1);
    }
    verifications.mockClear();
    await counted.verifyCredentials({
      companyId: company.id,
      loginId: "nobody-here",
      password: "x",
      clientAddress,
    });
    expect(verifications).toHaveBeenCalledTimes(1);
  });

  it("VerifyCredentials gives the user only for the right password, and the same answer for an unknown login ID", async () => {
    await identity.createUser(newUser(company, { loginName: "carl", password: "password-1" }));
    const right = await identity.verifyCredentials({
      companyId: company.id,
      loginId: "Carl",
      password: "password-1",
      clientAddress,
    });
    expect(right.user?.loginName).toBe("carl");
    const wrong = await identity.verifyCredentials({
      companyId: company.id,
      loginId: "carl",
      password: "password-2",
      clientAddress,
    });
    const unknown = await identity.verifyCredentials({
      companyId: company.id,
      loginId: "nobody",
      password: "password-1",
      clientAddress,
    });
    const { check: _, ...wrongAnswer } = wrong;
    const { check: __, ...unknownAnswer } = unknown;
    expect(wrongAnswer).toEqual({
      normalizedLoginId: "carl",
      user: undefined,
      passwordChangeRequired: false,
    });
    expect(unknownAnswer).toEqual({
      normalizedLoginId: "nobody",
      user: undefined,
      passwordChangeRequired: false,
    });
    expect(wrong.check).toEqual(unknown.check);
  });
});

describe("a password is compared only under the budget of guesses (docs/security.md)", () => {
  let company: Company;
  let userId: string;
  beforeAll(async () => {
    company = (await identity.createCompany({ code: code(), name: "Guesses" })).company as Company;
    const { user } = await identity.createUser(
      newUser(company, { loginName: "gus", password: "password-1" }),
    );
    userId = user?.id ?? "";
  });
  const verify = (password: string) =>
    identity.verifyPassword({
      companyId: company.id,
      userId,
      password,
      clientAddress,
      captchaResponse: "c",
      sessionToken: "session-1",
    });
  const credentials = (loginId: string, password: string) =>
    identity.verifyCredentials({ companyId: company.id, loginId, password, clientAddress });

  it("reserves one check of the user's password budget first, with the company's limits, the captcha as identity verified it, and the session", async () => {
    const before = budget.reserved.length;
    await verify("password-1");
    expect(budget.reserved.slice(before)).toEqual([
      {
        companyId: company.id,
        subject: { userId },
        kind: SecretKind.PASSWORD,
        limits: defaultCompanyLimits,
        // The company has no captcha provider: no response passes.
        captcha: CaptchaVerdict.FAILED,
        sessionToken: "session-1",
      },
    ]);
  });

  it("verifies the client's captcha with the company's provider before it reserves, and tells the session service only whether it passed", async () => {
    const { company: dev } = await identity.createCompany({
      code: code(),
      name: "Captcha",
      policy: companyPolicy({ captcha: { provider: CaptchaProvider.DEV, secret: "" } }),
    });
    const { user } = await identity.createUser(
      newUser(dev as Company, { loginName: "cat", password: "password-1" }),
    );
    const verdictOf = async (captchaResponse?: string) => {
      await identity.verifyPassword({
        companyId: dev?.id ?? "",
        userId: user?.id ?? "",
        password: "password-1",
        clientAddress,
        captchaResponse,
      });
      return budget.reserved.at(-1)?.captcha;
    };
    expect(await verdictOf("dev-captcha-pass")).toBe(CaptchaVerdict.PASSED);
    expect(await verdictOf("anything else")).toBe(CaptchaVerdict.FAILED);
    expect(await verdictOf(undefined)).toBe(CaptchaVerdict.UNSPECIFIED);
  });

  it("reserves a password check without a session for VerifyCredentials, whose session starts on it", async () => {
    const before = budget.reserved.length;
    await credentials("gus", "password-1");
    expect(budget.reserved.slice(before)).toEqual([
      expect.objectContaining({
        companyId: company.id,
        subject: { userId },
        kind: SecretKind.PASSWORD,
        captcha: CaptchaVerdict.UNSPECIFIED,
      }),
    ]);
    expect(budget.reserved.at(-1)?.sessionToken).toBeUndefined();
  });

  it("spends the budget of the user a login ID names, and of the login ID itself when it names none", async () => {
    const before = budget.reserved.length;
    await credentials("GUS", "password-2");
    await credentials("Nobody", "password-2");
    expect(budget.reserved.slice(before).map((reservation) => reservation.subject)).toEqual([
      { userId },
      { loginId: "nobody" },
    ]);
  });

  it("compares nothing when the budget refuses, and answers the refusal", async () => {
    budget.refuse = CheckOutcome.LOCKED_OUT;
    try {
      const reports = budget.reported.length;
      const refused = await credentials("gus", "password-1");
      expect(refused.user).toBeUndefined();
      expect(refused.check).toMatchObject({ outcome: CheckOutcome.LOCKED_OUT, retryAfterSeconds: 60 });
      expect((await verify("password-1")).valid).toBe(false);
      expect(budget.reported.length).toBe(reports);
    } finally {
      budget.refuse = undefined;
    }
  });

  describe('a guess the budget refuses reads no row and hashes nothing (docs/security.md, "Bursts")', () => {
    const userReads = () => vi.spyOn(IdentityStore.prototype, "findUser");
    const loginIdReads = () => vi.spyOn(IdentityStore.prototype, "findUserByLoginId");
    afterEach(() => {
      vi.restoreAllMocks();
      budget.refuse = undefined;
    });

    it("VerifyPassword reads the user only once the budget allowed the check", async () => {
      const reads = userReads();
      budget.refuse = CheckOutcome.LOCKED_OUT;
      expect((await verify("password-1")).valid).toBe(false);
      expect(reads).not.toHaveBeenCalled();
      budget.refuse = undefined;
      const right = await verify("password-1");
      expect(right.user?.id).toBe(userId);
      expect(reads).toHaveBeenCalledTimes(1);
    });

    it("VerifyCredentials reads a login ID's user once for a burst of 20, and not at all for refused guesses after it", async () => {
      const { user } = await identity.createUser(
        newUser(company, { loginName: "burst-target", password: "password-1" }),
      );
      const reads = loginIdReads();
      budget.refuse = CheckOutcome.LOCKED_OUT;
      const burst = await Promise.all(
        Array.from({ length: 20 }, () => credentials("burst-target", "password-2")),
      );
      for (const answer of [...burst, await credentials("Burst-Target", "password-2")]) {
        expect(answer.check?.outcome).toBe(CheckOutcome.LOCKED_OUT);
      }
      expect(reads).toHaveBeenCalledTimes(1);
      expect(budget.reserved.at(-1)?.subject).toEqual({ userId: user?.id });
      // A check the budget allows reads the user as the login ID names it now, and compares.
      budget.refuse = undefined;
      expect((await credentials("burst-target", "password-1")).user?.id).toBe(user?.id);
      expect(reads).toHaveBeenCalledTimes(2);
    });

    it("a login ID given to another user since it was read: the check reserved under the former user's budget is given back, and the password compared under the new one's", async () => {
      const { user: former } = await identity.createUser(
        newUser(company, { loginName: "handed-on", password: "password-1" }),
      );
      await credentials("handed-on", "password-2");
      await identity.updateUser({ companyId: company.id, userId: former?.id ?? "", loginName: "handed-off" });
      const { user: next } = await identity.createUser(
        newUser(company, { loginName: "handed-on", password: "password-3" }),
      );
      const reserved = budget.reserved.length;
      const reported = budget.reported.length;
      const right = await credentials("handed-on", "password-3");
      expect(right.user?.id).toBe(next?.id);
      expect(budget.reserved.slice(reserved).map((reservation) => reservation.subject)).toEqual([
        { userId: former?.id },
        { userId: next?.id },
      ]);
      expect(budget.reported.slice(reported)).toEqual([
        { companyId: company.id, checkId: `check-${reserved + 1}`, result: CheckResult.UNCHECKED },
      ]);
    });

    it("a login ID that named no one and now names a user: the password is compared under the user's budget", async () => {
      await credentials("newcomer", "password-1");
      const { user } = await identity.createUser(
        newUser(company, { loginName: "newcomer", password: "password-1" }),
      );
      const reserved = budget.reserved.length;
      expect((await credentials("newcomer", "password-1")).user?.id).toBe(user?.id);
      expect(budget.reserved.slice(reserved).map((reservation) => reservation.subject)).toEqual([
        { loginId: "newcomer" },
        { userId: user?.id },
      ]);
    });
  });

  it("reports a wrong password at once, and leaves a right one's check for the session move", async () => {
    const reports = budget.reported.length;
    const wrong = await verify("password-2");
    expect(wrong.check?.checkId).toBe("");
    expect(budget.reported.slice(reports)).toEqual([
      { companyId: company.id, checkId: `check-${budget.reserved.length}`, result: CheckResult.WRONG },
    ]);
    const right = await verify("password-1");
    expect(right.check?.checkId).toBe(`check-${budget.reserved.length}`);
    expect(budget.reported.length).toBe(reports + 1);
  });
});

describe("SetPassword", () => {
  let company: Company;
  let userId: string;
  beforeAll(async () => {
    company = (
      await identity.createCompany({
        code: code(),
        name: "Policy",
        policy: companyPolicy({ passwordRegex: "[0-9]" }),
      })
    ).company as Company;
    const { user } = await identity.createUser(
      newUser(company, { loginName: "dora", password: "current-password-1", passwordChangeRequired: true }),
    );
    userId = user?.id ?? "";
  });
  /**
   * A password of the user's session in setpassword that checked the password, claimed for the
   * change unless only validating.
   */
  const set = (newPassword: string, validateOnly = false) =>
    identity.setPassword({
      companyId: company.id,
      userId,
      newPassword,
      validateOnly,
      sessionToken: (validateOnly ? credentialChanges.open : credentialChanges.claim)(company.id, userId),
    });
  /** Whether the password logs the user in. */
  const logsIn = async (password: string) =>
    (await identity.verifyPassword({ companyId: company.id, userId, password, clientAddress })).valid;

  it.each([
    [
      "shorter than 15 characters, the user having no second factor",
      "abcdefghijklm1",
      PasswordProblem.TOO_SHORT,
    ],
    ["longer than 256 characters", `${"a".repeat(256)}1`, PasswordProblem.TOO_LONG],
    ["on the blocklist of common passwords", "1QAZ2WSX3EDC4RFV", PasswordProblem.COMMON],
    ["containing the user's login name", "kettle DORA kettle 1", PasswordProblem.CONTEXT],
    ["containing the company's name", "kettle policy kettle 1", PasswordProblem.CONTEXT],
    ["not matching the company's regex", "no digits in this one", PasswordProblem.REGEX_MISMATCH],
    ["the current password", "current-password-1", PasswordProblem.SAME_AS_CURRENT],
  ])("refuses a password %s", async (_, password, problem) => {
    expect(await set(password)).toEqual({ problem });
  });

  it("asks 8 characters of a user with a second factor, and 15 of the others", async () => {
    const { user } = await identity.createUser(
      newUser(company, { loginName: "otto", password: "current-password-1", secondFactorRequired: true }),
    );
    const setFor = (id: string, newPassword: string) =>
      identity.setPassword({ companyId: company.id, userId: id, newPassword, validateOnly: true });
    expect(await setFor(user?.id ?? "", "kettle7")).toEqual({ problem: PasswordProblem.TOO_SHORT });
    expect(await setFor(user?.id ?? "", "kettle78")).toEqual({ problem: undefined });
    expect(await setFor(userId, "kettle78")).toEqual({ problem: PasswordProblem.TOO_SHORT });
  });

  it("only checks a password when asked to validate it, and writes nothing", async () => {
    expect(await set("current-password-1", true)).toEqual({ problem: PasswordProblem.SAME_AS_CURRENT });
    expect(await set("a-validated-password-3", true)).toEqual({ problem: undefined });
    const verdict = await identity.verifyPassword({
      companyId: company.id,
      userId,
      password: "a-validated-password-3",
      clientAddress,
    });
    expect(verdict.valid).toBe(false);
  });

  describe("writes only for a session claimed for a change of this very user (docs/security.md, Trust between the services)", () => {
    const write = (sessionToken?: string, forUser = userId) =>
      codeOf(
        identity.setPassword({
          companyId: company.id,
          userId: forUser,
          newPassword: "an-unclaimed-password-4",
          validateOnly: false,
          sessionToken,
        }),
      );

    it.each([
      ["no session token", () => undefined],
      ["a token the session service does not know as claimed", () => "not-claimed"],
      [
        "a token claimed for another user of the company",
        () => credentialChanges.claim(company.id, "u-other"),
      ],
      [
        "a token claimed for the user's id in another company",
        () => credentialChanges.claim("c-other", userId),
      ],
    ])("refuses %s with auth.token.invalid, and writes nothing", async (_, token) => {
      expect(await write(token())).toBe("auth.token.invalid");
      expect(await logsIn("an-unclaimed-password-4")).toBe(false);
    });

    it("asks the session service about the token it was given, and nothing without one when only validating", async () => {
      const asked = credentialChanges.asked.length;
      expect(
        await identity.setPassword({
          companyId: company.id,
          userId,
          newPassword: "a-validated-password-5",
          validateOnly: true,
        }),
      ).toEqual({ problem: undefined });
      expect(credentialChanges.asked.length).toBe(asked);
      const sessionToken = credentialChanges.claim(company.id, userId);
      expect(await write(sessionToken)).toBe("ok");
      expect(credentialChanges.asked.slice(asked)).toEqual([{ sessionToken }]);
      expect(await logsIn("an-unclaimed-password-4")).toBe(true);
    });
  });

  describe('compares the new password with the current one only for a session in setpassword that checked it (docs/decisions.md, "Passwords")', () => {
    /** A user of the company whose password is current-password-1. */
    const seeded = async () =>
      (
        await identity.createUser(
          newUser(company, { loginName: `u${++sequence}`, password: "current-password-1" }),
        )
      ).user?.id ?? "";
    const comparedPasswords = async () =>
      (await metrics.secretsCompared.get()).values.find((value) => value.labels.kind === "password")?.value ??
      0;
    const setAs = (id: string, newPassword: string, validateOnly: boolean, sessionToken: string) =>
      identity.setPassword({ companyId: company.id, userId: id, newPassword, validateOnly, sessionToken });

    it("refuses the current password from a session in setpassword that checked it: one compare, to the session that proved the password", async () => {
      const id = await seeded();
      const before = await comparedPasswords();
      const session = { state: SessionState.SETPASSWORD, passwordChecked: true };
      expect(
        await setAs(id, "current-password-1", true, credentialChanges.open(company.id, id, session)),
      ).toEqual({ problem: PasswordProblem.SAME_AS_CURRENT });
      expect(
        await setAs(id, "current-password-1", false, credentialChanges.claim(company.id, id, session)),
      ).toEqual({ problem: PasswordProblem.SAME_AS_CURRENT });
      expect((await comparedPasswords()) - before).toBe(2);
    });

    it.each([
      [
        "recovery-setpassword (a recovery, which replaces a password it never checked)",
        SessionState.RECOVERY_SETPASSWORD,
        false,
      ],
      [
        "authorized (the signed-in user's change, its login's check long spent)",
        SessionState.AUTHORIZED,
        true,
      ],
      ["setpassword that a passkey reached (no password checked)", SessionState.SETPASSWORD, false],
    ])(
      "compares nothing for a session in %s: the current password is no problem, and is set",
      async (_, state, passwordChecked) => {
        const id = await seeded();
        const before = await comparedPasswords();
        const session = { state, passwordChecked };
        expect(
          await setAs(id, "current-password-1", true, credentialChanges.open(company.id, id, session)),
        ).toEqual({ problem: undefined });
        expect(
          await setAs(id, "current-password-1", false, credentialChanges.claim(company.id, id, session)),
        ).toEqual({});
        expect((await comparedPasswords()) - before).toBe(0);
        expect(
          (
            await identity.verifyPassword({
              companyId: company.id,
              userId: id,
              password: "current-password-1",
              clientAddress,
            })
          ).valid,
        ).toBe(true);
      },
    );

    it("a change resumed after its write (the same claim) is neither compared nor written again", async () => {
      const id = await seeded();
      const sessionToken = credentialChanges.claim(company.id, id);
      expect(await setAs(id, "a-resumed-password-1", false, sessionToken)).toEqual({});
      const before = await comparedPasswords();
      expect(await setAs(id, "a-resumed-password-1", false, sessionToken)).toEqual({});
      expect(await setAs(id, "another-password-2", false, sessionToken)).toEqual({});
      expect((await comparedPasswords()) - before).toBe(0);
      const logsInWith = async (password: string) =>
        (await identity.verifyPassword({ companyId: company.id, userId: id, password, clientAddress })).valid;
      expect(await logsInWith("a-resumed-password-1")).toBe(true);
      expect(await logsInWith("another-password-2")).toBe(false);
      // Another claim of the user writes its own.
      expect(await setAs(id, "another-password-2", false, credentialChanges.claim(company.id, id))).toEqual(
        {},
      );
      expect(await logsInWith("another-password-2")).toBe(true);
    });
  });

  it("sets an acceptable password and ends the demand for a change", async () => {
    expect(await set("a-new-password-2")).toEqual({ problem: undefined });
    const verdict = await identity.verifyPassword({
      companyId: company.id,
      userId,
      password: "a-new-password-2",
      clientAddress,
    });
    expect(verdict).toMatchObject({ valid: true, passwordChangeRequired: false, user: { id: userId } });
    expect(
      (
        await identity.verifyPassword({
          companyId: company.id,
          userId,
          password: "current-password-1",
          clientAddress,
        })
      ).valid,
    ).toBe(false);
  });
});

describe("a user's authenticators (docs/decisions.md, Second factors)", () => {
  let company: Company;
  beforeAll(async () => {
    company = (
      await identity.createCompany({
        code: code(),
        name: "Factors",
        policy: companyPolicy({
          twoFactorRoles: ["admin"],
          minPasswordLength: 17,
          minPasswordLengthWithSecondFactor: 10,
        }),
      })
    ).company as Company;
  });
  const ids = (userId: string) => ({ companyId: company.id, userId });
  const authenticatorsOf = async (userId: string) =>
    (await identity.getUser(ids(userId))).user?.authenticators;
  /** A user with a password and, unless said otherwise, a phone. */
  async function seeded(overrides: Record<string, unknown> = {}): Promise<string> {
    const { user } = await weakIdentity.createUser(
      newUser(company, {
        phone: `+12015557${String(++sequence).padStart(3, "0")}`,
        password: "password-1",
        ...overrides,
      }),
    );
    return user?.id ?? "";
  }
  async function withApp(): Promise<string> {
    const userId = await seeded();
    const { secret } = await identity.beginTotpEnrolment(ids(userId));
    await identity.confirmTotpEnrolment({ ...ids(userId), code: await generate({ secret }), clientAddress });
    return userId;
  }
  async function withBackupCodes(): Promise<{ userId: string; backupCodes: string[] }> {
    const userId = await seeded();
    return { userId, ...(await weakIdentity.generateBackupCodes(ids(userId))) };
  }

  describe("User.authenticators", () => {
    it("of a plain user: SMS to the phone, no second factor required, the plain least length", async () => {
      expect(await authenticatorsOf(await seeded())).toEqual({
        secondFactors: [SecondFactorKind.SMS],
        secondFactorRequired: false,
        minPasswordLength: 17,
        passkeyReplacesPassword: false,
      });
    });

    it.each([
      ["the user's flag", { secondFactorRequired: true }],
      ["a role in two_factor_roles", { role: "admin" }],
    ])(
      "of a user who needs a second factor by %s: required, with the shorter least length",
      async (_, overrides) => {
        expect(await authenticatorsOf(await seeded(overrides))).toEqual({
          secondFactors: [SecondFactorKind.SMS],
          secondFactorRequired: true,
          minPasswordLength: 10,
          passkeyReplacesPassword: false,
        });
      },
    );

    it("of a user with an app: the app, and no longer SMS, then the backup codes issued with it; required, whatever the flag", async () => {
      expect(await authenticatorsOf(await withApp())).toEqual({
        secondFactors: [SecondFactorKind.AUTHENTICATOR_APP, SecondFactorKind.BACKUP_CODES],
        secondFactorRequired: true,
        minPasswordLength: 10,
        passkeyReplacesPassword: false,
      });
    });

    it("of a user without a phone: no second factor", async () => {
      expect(await authenticatorsOf(await seeded({ phone: undefined }))).toEqual({
        secondFactors: [],
        secondFactorRequired: false,
        minPasswordLength: 17,
        passkeyReplacesPassword: false,
      });
    });

    it("list backup codes while the user has some left, and not after the last is used", async () => {
      const { userId, backupCodes } = await withBackupCodes();
      const factors = async () => (await authenticatorsOf(userId))?.secondFactors;
      expect(await factors()).toEqual([SecondFactorKind.SMS, SecondFactorKind.BACKUP_CODES]);
      for (const backupCode of backupCodes.slice(0, -1))
        expect(await weakIdentity.useBackupCode({ ...ids(userId), backupCode })).toEqual({ valid: true });
      expect(await factors()).toEqual([SecondFactorKind.SMS, SecondFactorKind.BACKUP_CODES]);
      await weakIdentity.useBackupCode({ ...ids(userId), backupCode: backupCodes.at(-1) ?? "" });
      expect(await factors()).toEqual([SecondFactorKind.SMS]);
    });
  });

  describe("SetPassword's least length is the user's min_password_length, the length every process tells", () => {
    it.each([
      ["a plain user", () => seeded()],
      ["a user with the flag", () => seeded({ secondFactorRequired: true })],
      ["a user whose role is in two_factor_roles", () => seeded({ role: "admin" })],
      ["a user without a phone", () => seeded({ phone: undefined })],
      ["a user with an app", withApp],
      ["a user with backup codes", async () => (await withBackupCodes()).userId],
    ])(
      "for %s: min_password_length - 1 characters are TOO_SHORT, min_password_length are enough",
      async (_, seed) => {
        const userId = await seed();
        const length = (await authenticatorsOf(userId))?.minPasswordLength ?? 0;
        // Neither common nor a word of the user's context.
        const password = "violet kettle under the bridge".slice(0, length);
        const set = (newPassword: string) =>
          identity.setPassword({ ...ids(userId), newPassword, validateOnly: true });
        expect(await set(password.slice(0, -1))).toEqual({ problem: PasswordProblem.TOO_SHORT });
        expect(await set(password)).toEqual({ problem: undefined });
      },
    );
  });
});

describe("backup codes", () => {
  let company: Company;
  let userId: string;
  beforeAll(async () => {
    company = (await identity.createCompany({ code: code(), name: "Backup" })).company as Company;
    const { user } = await identity.createUser(
      newUser(company, { loginName: "eve", password: "password-1" }),
    );
    userId = user?.id ?? "";
  });
  const use = (backupCode: string) => identity.useBackupCode({ companyId: company.id, userId, backupCode });
  const remaining = async () =>
    (await identity.countBackupCodes({ companyId: company.id, userId })).remaining;

  it("are 10 codes of 60 random bits, shown once and counted", async () => {
    const { backupCodes } = await identity.generateBackupCodes({ companyId: company.id, userId });
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    for (const backupCode of backupCodes)
      expect(backupCode).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(await remaining()).toBe(10);
  });

  it("work once each, typed in any case and without dashes", async () => {
    const { backupCodes } = await identity.generateBackupCodes({ companyId: company.id, userId });
    const [first = ""] = backupCodes;
    expect(await use(first.toLowerCase().replace(/-/g, " "))).toEqual({ valid: true });
    expect(await use(first)).toEqual({ valid: false });
    expect(await remaining()).toBe(9);
  });

  it("work once however many uses race", async () => {
    const { backupCodes } = await identity.generateBackupCodes({ companyId: company.id, userId });
    const results = await Promise.all(Array.from({ length: 8 }, () => use(backupCodes[0] ?? "")));
    expect(results.filter((result) => result.valid)).toHaveLength(1);
  });

  it("are all replaced when new ones are generated", async () => {
    const { backupCodes: old } = await identity.generateBackupCodes({ companyId: company.id, userId });
    await identity.generateBackupCodes({ companyId: company.id, userId });
    expect(await use(old[1] ?? "")).toEqual({ valid: false });
    expect(await remaining()).toBe(10);
  });

  it("are refused when wrong", async () => {
    await identity.generateBackupCodes({ companyId: company.id, userId });
    expect(await use("0000-0000-0000")).toEqual({ valid: false });
  });

  it("are stored as argon2id with 128 random bits of salt per set, never as the code (NIST SP 800-63B-4 3.1.2.2, ASVS 5.0 6.5.2)", async () => {
    const storedCodes = async () =>
      (await database.db.select().from(schema.backupCodes).where(eq(schema.backupCodes.userId, userId))).map(
        (row) => row.codeHash,
      );
    const { backupCodes } = await identity.generateBackupCodes({ companyId: company.id, userId });
    const first = await storedCodes();
    await identity.generateBackupCodes({ companyId: company.id, userId });
    const second = await storedCodes();
    const saltOf = (stored: string) => stored.split("$")[4] ?? "";
    for (const stored of [...first, ...second]) {
      expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(Buffer.from(saltOf(stored), "base64")).toHaveLength(16);
      for (const backupCode of backupCodes) expect(stored).not.toContain(normalizeBackupCode(backupCode));
    }
    expect(new Set(first.map(saltOf)).size).toBe(1);
    expect(saltOf(second[0] ?? "")).not.toBe(saltOf(first[0] ?? ""));
  });

  it("issued before argon2id (SHA-256 salted with the user id) still work once each", async () => {
    const legacy = (backupCode: string) =>
      createHash("sha256")
        .update(`${userId}:${normalizeBackupCode(backupCode)}`)
        .digest("base64url");
    await new IdentityStore(database.db).replaceBackupCodes(
      company.id,
      userId,
      [legacy("AAAA-BBBB-CCCC"), legacy("DDDD-EEEE-FFFF")],
      systemOrigin,
    );
    expect(await use("0000-0000-0000")).toEqual({ valid: false });
    expect(await use("aaaa bbbb cccc")).toEqual({ valid: true });
    expect(await use("AAAA-BBBB-CCCC")).toEqual({ valid: false });
    expect(await remaining()).toBe(1);
  });

  it("are refused to a user who has none", async () => {
    const { user } = await identity.createUser(
      newUser(company, { loginName: "no-codes", password: "password-1" }),
    );
    const backupCode = "AAAA-BBBB-CCCC";
    expect(
      await identity.useBackupCode({ companyId: company.id, userId: user?.id ?? "", backupCode }),
    ).toEqual({
      valid: false,
    });
  });
});

describe("TOTP (docs/decisions.md, TOTP)", () => {
  let company: Company;
  let userId: string;
  let email: string;
  beforeAll(async () => {
    company = (await identity.createCompany({ code: code(), name: "Totp Co" })).company as Company;
  });
  // A user of each test's own: each step of a user's app is used once, and an app is replaced only
  // with a code of it.
  beforeEach(async () => {
    email = `tom${++sequence}@totp.example`;
    const { user } = await weakIdentity.createUser(newUser(company, { email, password: "password-1" }));
    userId = user?.id ?? "";
  });
  const ids = () => ({ companyId: company.id, userId });
  const storedRow = async () => {
    const [row] = await database.db.select().from(schema.users).where(eq(schema.users.id, userId));
    return row;
  };
  const verify = (code: string) =>
    identity.verifyTotp({ ...ids(), code, clientAddress, sessionToken: "session-1" });
  const confirm = (code: string, currentCode?: string) =>
    identity.confirmTotpEnrolment({ ...ids(), code, currentCode, clientAddress, sessionToken: "session-1" });
  const hasApp = async () =>
    (await identity.getUser(ids())).user?.authenticators?.secondFactors.includes(
      SecondFactorKind.AUTHENTICATOR_APP,
    );
  const useBackupCode = (backupCode: string) => identity.useBackupCode({ ...ids(), backupCode });
  /** Enrols the user's first app and returns its secret; the code that confirmed it is used up. */
  async function enrol(): Promise<string> {
    const { secret } = await identity.beginTotpEnrolment(ids());
    expect(await confirm(await generate({ secret }))).toEqual({
      enrolled: true,
      currentCodeRefused: false,
      backupCodes: expect.arrayContaining([expect.any(String)]),
    });
    return secret;
  }

  describe("backup codes with the first factor (docs/decisions.md, Passkeys)", () => {
    it("issues a user who has none the first set with the app, shown once, and the codes work", async () => {
      const { secret } = await identity.beginTotpEnrolment(ids());
      const { backupCodes } = await confirm(await generate({ secret }));
      expect(backupCodes).toHaveLength(10);
      expect(await identity.countBackupCodes(ids())).toEqual({ remaining: 10 });
      expect(await useBackupCode(backupCodes[3] ?? "")).toEqual({ valid: true });
    });

    it("issues none to a user who has some: the user's codes stay", async () => {
      const { backupCodes: own } = await weakIdentity.generateBackupCodes(ids());
      const { secret } = await identity.beginTotpEnrolment(ids());
      expect(await confirm(await generate({ secret }))).toMatchObject({ enrolled: true, backupCodes: [] });
      expect(await useBackupCode(own[0] ?? "")).toEqual({ valid: true });
    });

    it("issues none when the code is wrong: nothing was enrolled", async () => {
      await identity.beginTotpEnrolment(ids());
      expect(await confirm("000000")).toMatchObject({ enrolled: false, backupCodes: [] });
      expect(await identity.countBackupCodes(ids())).toEqual({ remaining: 0 });
    });
  });

  it("begins an enrolment with an otpauth URI of the company and the user, and is not enrolled until confirmed", async () => {
    const { otpauthUri, secret } = await identity.beginTotpEnrolment(ids());
    const uri = new URL(otpauthUri);
    expect(uri.searchParams.get("secret")).toBe(secret);
    expect(uri.searchParams.get("issuer")).toBe("Totp Co");
    expect(decodeURIComponent(uri.pathname)).toContain(email);
    expect(await hasApp()).toBe(false);
    expect(await confirm("000000")).toEqual({
      enrolled: false,
      currentCodeRefused: false,
      backupCodes: [],
    });
    expect(await confirm(await generate({ secret }))).toEqual({
      enrolled: true,
      currentCodeRefused: false,
      backupCodes: expect.arrayContaining([expect.any(String)]),
    });
    expect(await hasApp()).toBe(true);
  });

  it("stores the secret sealed: the row never holds it in the clear", async () => {
    const { secret } = await identity.beginTotpEnrolment(ids());
    expect(JSON.stringify(await storedRow())).not.toContain(secret);
    await confirm(await generate({ secret }));
    const row = await storedRow();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(secrets.open(row?.totpSecret ?? "")).toBe(secret);
  });

  it("accepts a login's code once: the same code again is refused", async () => {
    const secret = await enrol();
    const code = await nextCode(secret);
    expect((await verify(code)).valid).toBe(true);
    expect((await verify(code)).valid).toBe(false);
  });

  it("lets one of many parallel uses of a code pass", async () => {
    const secret = await enrol();
    const code = await nextCode(secret);
    const results = await Promise.all(Array.from({ length: 8 }, () => verify(code)));
    expect(results.filter((result) => result.valid)).toHaveLength(1);
  });

  it("refuses a wrong code, and a code of a secret only pending", async () => {
    const enrolled = await enrol();
    const { secret: pending } = await identity.beginTotpEnrolment(ids());
    expect((await verify(await nextCode(pending))).valid).toBe(false);
    expect((await verify(otherThan(await nextCode(enrolled)))).valid).toBe(false);
  });

  it("spends the user's budget of app codes, in the session's name, before it compares, and compares nothing when the budget refuses", async () => {
    const secret = await enrol();
    budget.reserved.length = 0;
    budget.reported.length = 0;
    expect((await verify("000000")).check?.outcome).toBe(CheckOutcome.ALLOWED);
    expect(budget.reserved).toEqual([
      {
        companyId: company.id,
        subject: { userId },
        kind: SecretKind.APP_CODE,
        limits: expect.objectContaining({ lockoutAfterFailures: 10 }),
        captcha: CaptchaVerdict.UNSPECIFIED,
        sessionToken: "session-1",
      },
    ]);
    expect(budget.reported).toEqual([expect.objectContaining({ result: CheckResult.WRONG })]);
    budget.refuse = CheckOutcome.LOCKED_OUT;
    try {
      const refused = await verify(await nextCode(secret));
      expect(refused.valid).toBe(false);
      expect(refused.check?.outcome).toBe(CheckOutcome.LOCKED_OUT);
    } finally {
      budget.refuse = undefined;
    }
    // The right code was never compared, so it still works.
    const right = await verify(await nextCode(secret));
    expect(right.valid).toBe(true);
    expect(right.check?.checkId).not.toBe("");
  });

  it("is removed by RemoveTotp: the user is no longer enrolled, and the user's sessions end", async () => {
    await enrol();
    userSessions.revoked.length = 0;
    expect(await identity.removeTotp(ids())).toEqual({ removed: true });
    expect(await hasApp()).toBe(false);
    expect(userSessions.revoked).toEqual([{ companyId: company.id, userId }]);
    expect(await identity.removeTotp(ids())).toEqual({ removed: false });
  });

  describe("an app is replaced only with a code of it (docs/decisions.md, Second factors)", () => {
    /** Enrols a first app, begins a second one, and gives both secrets. */
    async function replacing() {
      const current = await enrol();
      const { secret } = await identity.beginTotpEnrolment(ids());
      budget.reserved.length = 0;
      budget.reported.length = 0;
      return { current, secret };
    }
    const stillCurrent = async (current: string) =>
      secrets.open((await storedRow())?.totpSecret ?? "") === current;

    it("refuses without a code of the current app, and checks nothing", async () => {
      const { current, secret } = await replacing();
      expect(await confirm(await generate({ secret }))).toEqual({
        enrolled: false,
        currentCodeRefused: true,
        backupCodes: [],
      });
      expect(budget.reserved).toEqual([]);
      expect(await stillCurrent(current)).toBe(true);
    });

    it("refuses a wrong code of the current app, counted as a wrong app code of the session", async () => {
      const { current, secret } = await replacing();
      const refused = await confirm(await generate({ secret }), otherThan(await nextCode(current)));
      expect(refused).toMatchObject({
        enrolled: false,
        currentCodeRefused: true,
        currentCheck: { outcome: CheckOutcome.ALLOWED, checkId: "" },
      });
      expect(budget.reserved).toEqual([
        {
          companyId: company.id,
          subject: { userId },
          kind: SecretKind.APP_CODE,
          limits: expect.objectContaining({ lockoutAfterFailures: 10 }),
          captcha: CaptchaVerdict.UNSPECIFIED,
          sessionToken: "session-1",
        },
      ]);
      expect(budget.reported).toEqual([expect.objectContaining({ result: CheckResult.WRONG })]);
      expect(await stillCurrent(current)).toBe(true);
    });

    it("refuses when the budget refuses the check, without comparing the code", async () => {
      const { current, secret } = await replacing();
      const code = await nextCode(current);
      budget.refuse = CheckOutcome.LOCKED_OUT;
      try {
        expect(await confirm(await generate({ secret }), code)).toMatchObject({
          enrolled: false,
          currentCodeRefused: true,
          currentCheck: { outcome: CheckOutcome.LOCKED_OUT },
        });
      } finally {
        budget.refuse = undefined;
      }
      expect(budget.reported).toEqual([]);
      expect(await stillCurrent(current)).toBe(true);
      // Never compared, the code is still good.
      expect((await verify(code)).valid).toBe(true);
    });

    it("replaces it with a right code, reported right at once: the old app's codes then fail", async () => {
      const { current, secret } = await replacing();
      const replaced = await confirm(await generate({ secret }), await nextCode(current));
      expect(replaced).toMatchObject({ enrolled: true, currentCodeRefused: false });
      expect(budget.reported).toEqual([
        { companyId: company.id, checkId: replaced.currentCheck?.checkId, result: CheckResult.RIGHT },
      ]);
      expect(await stillCurrent(secret)).toBe(true);
      expect((await verify(await nextCode(current))).valid).toBe(false);
      expect((await verify(await nextCode(secret))).valid).toBe(true);
    });

    it("checks the new app's code first: a wrong one uses up nothing of the current app", async () => {
      const { current, secret } = await replacing();
      const code = await nextCode(current);
      expect(await confirm(otherThan(await generate({ secret })), code)).toEqual({
        enrolled: false,
        currentCodeRefused: false,
        backupCodes: [],
      });
      expect(budget.reserved).toEqual([]);
      expect(await confirm(await generate({ secret }), code)).toMatchObject({ enrolled: true });
    });

    it("takes a code of the current app once: the code that replaced it replaces nothing more", async () => {
      const { current, secret } = await replacing();
      const code = await nextCode(current);
      expect(await verify(code)).toMatchObject({ valid: true });
      expect(await confirm(await generate({ secret }), code)).toMatchObject({
        enrolled: false,
        currentCodeRefused: true,
      });
    });
  });
});

describe("the secrets of a company's policy", () => {
  const secretsOf = ["captcha-secret-1", "sms-token-1", "smtp-password-1"];
  let siteverify: Server;
  let verifyUrl: string;
  beforeAll(async () => {
    // A captcha provider that passes a response only with the secret it expects.
    siteverify = createServer(async (request, response) => {
      let body = "";
      for await (const chunk of request) body += chunk;
      const form = new URLSearchParams(body);
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          success: form.get("secret") === "captcha-secret-1" && form.get("response") === "ok",
        }),
      );
    });
    await new Promise<void>((resolve) => siteverify.listen(0, "127.0.0.1", resolve));
    verifyUrl = `http://127.0.0.1:${(siteverify.address() as AddressInfo).port}/siteverify`;
  });
  afterAll(async () => {
    siteverify.closeAllConnections();
    await new Promise((resolve) => siteverify.close(resolve));
  });

  const withSecrets = () =>
    companyPolicy({
      captcha: { provider: CaptchaProvider.TURNSTILE, secret: "captcha-secret-1", verifyUrl },
      sms: {
        provider: SmsProvider.HTTP,
        url: "https://sms.example/send",
        token: "sms-token-1",
        account: "",
        sender: "",
        region: "",
      },
      mail: { smtpUrl: "smtps://mailer:smtp-password-1@mail.example:465", from: "login@example.com" },
      recovery: { order: [], disabled: [], disabledByRole: {}, linkBase: "https://app.example/recover" },
    });
  const storedPolicy = async (companyId: string) => {
    const [row] = await database.db.select().from(schema.companies).where(eq(schema.companies.id, companyId));
    return JSON.stringify(row?.policy);
  };
  const expectNoSecret = (answer: unknown) => {
    for (const secret of secretsOf) expect(JSON.stringify(answer)).not.toContain(secret);
  };
  const users = new Map<string, string>();
  /** What the services that use the secrets get: the opened secrets. */
  async function deliveredSecrets(company: Company) {
    let userId = users.get(company.id);
    if (!userId) {
      const { user } = await identity.createUser(
        newUser(company, { phone: "+12025550123", email: "ann@example.com", password: "password-1" }),
      );
      userId = user?.id ?? "";
      users.set(company.id, userId);
    }
    const sms = await identity.getSmsDelivery({ companyId: company.id, userId, purpose: OtpPurpose.LOGIN });
    const mail = await identity.getMailDelivery({ companyId: company.id, userId });
    const captcha = await identity.verifyCaptcha({
      companyId: company.id,
      captchaResponse: "ok",
      clientAddress: "",
    });
    return { sms, mail, captcha };
  }

  it("are stored sealed", async () => {
    const { company } = await identity.createCompany({ code: code(), name: "Sealed", policy: withSecrets() });
    const stored = await storedPolicy(company?.id ?? "");
    for (const secret of secretsOf) expect(stored).not.toContain(secret);
  });

  it("are in no answer but the deliveries' and the captcha check: write-only, the SMTP URL shown without its password", async () => {
    const created = await identity.createCompany({ code: code(), name: "Quiet", policy: withSecrets() });
    const company = created.company as Company;
    const { apiKey } = await identity.createApiKey({ companyId: company.id, label: "" });
    const answers = [
      created,
      await identity.getCompany({ code: company.code }),
      await identity.listCompanies({ pageSize: 500, pageToken: "" }),
      await identity.authenticateApiKey({ companyCode: company.code, apiKey }),
      await identity.updateCompany({ companyId: company.id, name: "Still quiet" }),
    ];
    for (const answer of answers) expectNoSecret(answer);
    expect(created.company?.policy?.mail?.smtpUrl).toBe("smtps://mailer@mail.example:465");

    const { sms, mail, captcha } = await deliveredSecrets(company);
    expect(sms).toEqual({
      phone: "+12025550123",
      homeRegion: "US",
      defaultLanguage: "en",
      texts: [],
      sms: {
        provider: SmsProvider.HTTP,
        url: "https://sms.example/send",
        token: "sms-token-1",
        account: "",
        sender: "",
        region: "",
      },
    });
    expect(mail).toEqual({
      email: "ann@example.com",
      companyName: "Still quiet",
      linkBase: "https://app.example/recover",
      defaultLanguage: "en",
      texts: [],
      mail: { smtpUrl: "smtps://mailer:smtp-password-1@mail.example:465", from: "login@example.com" },
    });
    expect(captcha.valid).toBe(true);
  });

  it("are kept when a policy is written back as it was read, and replaced when new ones are given", async () => {
    const { company } = await identity.createCompany({ code: code(), name: "Kept", policy: withSecrets() });
    if (!company) throw new Error("no company");
    const { company: read } = await identity.getCompany({ code: company.code });
    await identity.updateCompany({
      companyId: company.id,
      policy: { ...read?.policy, captchaAfterFailures: 5 } as CompanyPolicy,
    });
    const kept = await deliveredSecrets(company);
    expect(kept.sms.sms?.token).toBe("sms-token-1");
    expect(kept.mail.mail?.smtpUrl).toBe("smtps://mailer:smtp-password-1@mail.example:465");
    expect(kept.captcha.valid).toBe(true);

    await identity.updateCompany({
      companyId: company.id,
      policy: companyPolicy({
        captcha: { provider: CaptchaProvider.TURNSTILE, secret: "captcha-secret-2", verifyUrl },
        sms: {
          provider: SmsProvider.HTTP,
          url: "https://other-sms.example/send",
          token: "",
          account: "",
          sender: "",
          region: "",
        },
        mail: { smtpUrl: "smtps://mailer@other-mail.example:465", from: "login@example.com" },
      }),
    });
    const replaced = await deliveredSecrets(company);
    expect(replaced.captcha.valid).toBe(false);
    // A secret is kept only for the provider it belongs to.
    expect(replaced.sms.sms?.token).toBe("");
    expect(replaced.mail.mail?.smtpUrl).toBe("smtps://mailer@other-mail.example:465");
  });

  it("of a captcha provider are required: none given and none kept is request.validation.failed", async () => {
    const { company } = await identity.createCompany({ code: code(), name: "Dev captcha" });
    const update = identity.updateCompany({
      companyId: company?.id ?? "",
      policy: companyPolicy({ captcha: { provider: CaptchaProvider.HCAPTCHA, secret: "" } }),
    });
    expect(await codeOf(update)).toBe("request.validation.failed");
  });

  it("of an SMS provider are kept only for the same provider, URL and account: Twilio's Auth Token never becomes Vonage's API secret", async () => {
    const twilio = {
      provider: SmsProvider.TWILIO,
      url: "",
      token: "twilio-token-1",
      account: `AC${"1".repeat(32)}`,
      sender: "+15557654321",
      region: "",
    };
    const { company } = await identity.createCompany({
      code: code(),
      name: "Twilio",
      policy: companyPolicy({ sms: twilio }),
    });
    if (!company) throw new Error("no company");
    const { company: read } = await identity.getCompany({ code: company.code });
    const policy = read?.policy as CompanyPolicy;
    await identity.updateCompany({ companyId: company.id, policy });
    expect((await deliveredSecrets(company)).sms.sms?.token).toBe("twilio-token-1");

    const rewritten = (sms: Partial<SmsSettings>) =>
      identity.updateCompany({
        companyId: company.id,
        policy: { ...policy, sms: { ...twilio, token: "", ...sms } },
      });
    expect(
      await codeOf(rewritten({ provider: SmsProvider.VONAGE, account: "a1b2c3d4", sender: "Acme" })),
    ).toBe("request.validation.failed");
    expect(await codeOf(rewritten({ account: `AC${"2".repeat(32)}` }))).toBe("request.validation.failed");
    expect((await deliveredSecrets(company)).sms.sms?.token).toBe("twilio-token-1");
  });

  it("stored before they were sealed are used as they are, and sealed at the next update", async () => {
    const { company } = await identity.createCompany({ code: code(), name: "Legacy" });
    if (!company) throw new Error("no company");
    await database.db
      .update(schema.companies)
      .set({ policy: withSecrets() })
      .where(eq(schema.companies.id, company.id));
    expect((await deliveredSecrets(company)).captcha.valid).toBe(true);
    const { company: read } = await identity.getCompany({ code: company.code });
    expectNoSecret(read);
    await identity.updateCompany({ companyId: company.id, policy: read?.policy });
    expect(await storedPolicy(company.id)).not.toContain("captcha-secret-1");
    expect((await deliveredSecrets(company)).captcha.valid).toBe(true);
  });
});

describe("VerifyCaptcha", () => {
  it("passes the dev response only for a company with the dev provider, where the deployment allows it", async () => {
    const { company: dev } = await identity.createCompany({
      code: code(),
      name: "Dev",
      policy: companyPolicy({ captcha: { provider: CaptchaProvider.DEV, secret: "" } }),
    });
    const { company: none } = await identity.createCompany({ code: code(), name: "None" });
    const verify = (companyId: string, captchaResponse: string) =>
      identity.verifyCaptcha({ companyId, captchaResponse, clientAddress: "203.0.113.9" });
    expect((await verify(dev?.id ?? "", "dev-captcha-pass")).valid).toBe(true);
    expect((await verify(dev?.id ?? "", "anything else")).valid).toBe(false);
    expect((await verify(none?.id ?? "", "dev-captcha-pass")).valid).toBe(false);
  });
});

describe("SMS settings (docs/decisions.md, SMS providers)", () => {
  const sms = (fields: Partial<SmsSettings>): SmsSettings => ({
    provider: SmsProvider.UNSPECIFIED,
    url: "",
    token: "",
    account: "",
    sender: "",
    region: "",
    ...fields,
  });
  const twilio = sms({
    provider: SmsProvider.TWILIO,
    account: `AC${"0123456789abcdef".repeat(2)}`,
    token: "twilio-auth-token",
    sender: "+15557654321",
  });
  const vonage = sms({
    provider: SmsProvider.VONAGE,
    account: "a1b2c3d4",
    token: "vonage-secret",
    sender: "Acme",
  });
  const sns = sms({
    provider: SmsProvider.AWS_SNS,
    account: "AKIAIOSFODNN7EXAMPLE",
    token: "aws-secret-access-key",
    region: "eu-west-1",
  });
  const create = (settings: SmsSettings) =>
    identity.createCompany({ code: code(), name: "Sms", policy: companyPolicy({ sms: settings }) });

  it.each([
    ["an HTTP provider without a URL", sms({ provider: SmsProvider.HTTP, token: "t" }), "url"],
    ["a template without {code}", sms({ loginTemplate: "Your code" }), "loginTemplate"],
    ["a provider this version does not know", sms({ provider: SmsProvider.UNRECOGNIZED }), "provider"],
    ["Twilio without an Account SID", { ...twilio, account: "" }, "account"],
    [
      "Twilio with an API key SID for the Account SID",
      { ...twilio, account: `SK${"0".repeat(32)}` },
      "account",
    ],
    ["Twilio without a sender", { ...twilio, sender: "" }, "sender"],
    ["Twilio without its Auth Token", { ...twilio, token: "" }, "token"],
    ["Twilio at a URL without TLS", { ...twilio, url: "http://api.twilio.example" }, "url"],
    ["Vonage without an API key", { ...vonage, account: "" }, "account"],
    ["Vonage without a sender", { ...vonage, sender: "" }, "sender"],
    ["Vonage without its API secret", { ...vonage, token: "" }, "token"],
    ["Amazon SNS without an access key ID", { ...sns, account: "" }, "account"],
    ["Amazon SNS without a region", { ...sns, region: "" }, "region"],
    ["Amazon SNS with a region that is no AWS region's name", { ...sns, region: "Ireland" }, "region"],
    ["Amazon SNS without its secret access key", { ...sns, token: "" }, "token"],
  ])("refuse %s, naming policy.sms.%s", async (_, settings, field) => {
    const refusal = await create(settings).catch((error: AuthError) => error);
    expect((refusal as AuthError).code).toBe("request.validation.failed");
    expect((refusal as AuthError).message).toMatch(new RegExp(`^policy\\.sms\\.${field}: `));
  });

  it.each([
    ["Twilio", twilio],
    [
      "Twilio through a Messaging Service at a regional URL",
      { ...twilio, sender: `MG${"a".repeat(32)}`, url: "https://api.dublin.ie1.twilio.com" },
    ],
    ["Vonage", vonage],
    ["Amazon SNS", sns],
    ["Amazon SNS in GovCloud, without a sender ID", { ...sns, region: "us-gov-west-1" }],
  ])("take %s with the fields it needs, and answer them without the token", async (_, settings) => {
    const { company } = await create(settings);
    expect(company?.policy?.sms).toEqual({ ...settings, token: "" });
  });
});

describe("messages to a user", () => {
  let company: Company;
  beforeAll(async () => {
    company = (
      await identity.createCompany({
        code: code(),
        name: "Messages",
        policy: companyPolicy({
          recoveryMessagesPerHour: 2,
          recovery: { order: [], disabled: [], disabledByRole: {}, linkBase: "https://app.example/r" },
        }),
      })
    ).company as Company;
  });
  const userOf = async (overrides = {}) => {
    const { user } = await identity.createUser(
      newUser(company, {
        phone: `+12015559${String(++sequence).padStart(3, "0")}`,
        email: `u${sequence}@example.com`,
        ...overrides,
      }),
    );
    return { companyId: company.id, userId: user?.id ?? "" };
  };

  const smsOf = (user: { companyId: string; userId: string }, purpose: OtpPurpose) =>
    identity.getSmsDelivery({ ...user, purpose });

  it("a recovery's code or link spends the company's recovery_messages_per_hour as its delivery is asked for (SMS and e-mail together), then is refused with request.ratelimit.exceeded", async () => {
    const user = await userOf();
    expect(await codeOf(smsOf(user, OtpPurpose.RECOVERY))).toBe("ok");
    expect(await codeOf(identity.getMailDelivery(user))).toBe("ok");
    for (const refused of [
      await smsOf(user, OtpPurpose.RECOVERY).catch((error: AuthError) => error),
      await identity.getMailDelivery(user).catch((error: AuthError) => error),
    ]) {
      expect(refused).toMatchObject({ code: "request.ratelimit.exceeded" });
      expect((refused as AuthError).retryAfterSeconds).toBeGreaterThan(3_000);
    }
  });

  it("a login code spends none, before or after the recovery messages are spent", async () => {
    const user = await userOf();
    for (let i = 0; i < 3; i += 1) expect(await codeOf(smsOf(user, OtpPurpose.LOGIN))).toBe("ok");
    expect(await codeOf(smsOf(user, OtpPurpose.RECOVERY))).toBe("ok");
    expect(await codeOf(smsOf(user, OtpPurpose.RECOVERY))).toBe("ok");
    expect(await codeOf(smsOf(user, OtpPurpose.RECOVERY))).toBe("request.ratelimit.exceeded");
    expect(await codeOf(smsOf(user, OtpPurpose.LOGIN))).toBe("ok");
  });

  it("a delivery that cannot be sent spends none: a code to a user without a phone, a link to a user without an e-mail", async () => {
    const user = await userOf({ phone: undefined, email: undefined, password: "a password long enough 1" });
    for (let i = 0; i < 3; i += 1) {
      expect((await smsOf(user, OtpPurpose.RECOVERY)).phone).toBeUndefined();
      expect((await identity.getMailDelivery(user)).email).toBeUndefined();
    }
    await identity.updateUser({ ...user, phone: "+12015558777", email: "again@example.com" });
    expect(await codeOf(smsOf(user, OtpPurpose.RECOVERY))).toBe("ok");
    expect(await codeOf(identity.getMailDelivery(user))).toBe("ok");
  });

  it("a link of a company without a recovery page spends none", async () => {
    const { company: pageless } = await identity.createCompany({
      code: code(),
      name: "No page",
      policy: companyPolicy({ recoveryMessagesPerHour: 1 }),
    });
    if (!pageless) throw new Error("no company");
    const { user: created } = await identity.createUser(
      newUser(pageless, { phone: "+12015558666", email: "nopage@example.com" }),
    );
    const user = { companyId: pageless.id, userId: created?.id ?? "" };
    for (let i = 0; i < 3; i += 1) expect((await identity.getMailDelivery(user)).linkBase).toBe("");
    expect(await codeOf(smsOf(user, OtpPurpose.RECOVERY))).toBe("ok");
  });

  it("a delivery needs to say what the code is for", async () => {
    const user = await userOf();
    expect(await codeOf(smsOf(user, OtpPurpose.UNSPECIFIED))).toBe("request.validation.failed");
  });

  it("defaults recovery_messages_per_hour to 5", async () => {
    const { company: created } = await identity.createCompany({
      code: code(),
      name: "Default",
      policy: companyPolicy(),
    });
    expect(created?.policy?.recoveryMessagesPerHour).toBe(5);
  });

  it("defaults a session's absolute lifetime to 12 hours and its inactivity timeout to 30 minutes, and takes no less than a minute (docs/security.md)", async () => {
    const { company: created } = await identity.createCompany({
      code: code(),
      name: "Default",
      policy: companyPolicy(),
    });
    expect(created?.policy).toMatchObject({ sessionAbsoluteSeconds: 43_200, sessionIdleSeconds: 1_800 });
    const strict = companyPolicy({ sessionAbsoluteSeconds: 3_600, sessionIdleSeconds: 300 });
    const { company: own } = await identity.createCompany({ code: code(), name: "Strict", policy: strict });
    expect(own?.policy).toMatchObject({ sessionAbsoluteSeconds: 3_600, sessionIdleSeconds: 300 });
    for (const policy of [
      companyPolicy({ sessionIdleSeconds: 59 }),
      companyPolicy({ sessionAbsoluteSeconds: 1 }),
    ]) {
      expect(await codeOf(identity.createCompany({ code: code(), name: "Too short", policy }))).toBe(
        "request.validation.failed",
      );
    }
  });

  it('keep a device known 90 days and cap no user\'s sessions by default, and answer both in the company\'s policy, which the gateway sends on to the session service (docs/decisions.md, "Known devices", "Session cap")', async () => {
    const { company: created } = await identity.createCompany({
      code: code(),
      name: "Default",
      policy: companyPolicy(),
    });
    expect(created?.policy).toMatchObject({ newDeviceNoticeDays: 90, maxSessionsPerUser: 0 });
    const own = companyPolicy({ newDeviceNoticeDays: 30, maxSessionsPerUser: 3 });
    const { company: strict } = await identity.createCompany({ code: code(), name: "Strict", policy: own });
    expect(strict?.policy).toMatchObject({ newDeviceNoticeDays: 30, maxSessionsPerUser: 3 });
    for (const policy of [
      companyPolicy({ newDeviceNoticeDays: 401 }),
      companyPolicy({ maxSessionsPerUser: 1_001 }),
    ])
      expect(await codeOf(identity.createCompany({ code: code(), name: "Too many", policy }))).toBe(
        "request.validation.failed",
      );
  });

  it("answer a policy stored before its limits existed with the defaults, in every answer", async () => {
    const { company } = await identity.createCompany({ code: code(), name: "Older" });
    if (!company?.policy) throw new Error("no company");
    const { recoveryMessagesPerHour, captchaAfterFailures, lockoutAfterFailures, ...older } = company.policy;
    await database.db
      .update(schema.companies)
      .set({ policy: older as CompanyPolicy })
      .where(eq(schema.companies.id, company.id));
    const { company: read } = await identity.getCompany({ code: company.code });
    expect(read?.policy).toMatchObject({
      recoveryMessagesPerHour: 5,
      captchaAfterFailures: 3,
      lockoutAfterFailures: 10,
      failureWindowSeconds: 900,
    });
  });

  it.each([
    ["restricted", UserStatus.RESTRICTED, "auth.user.restricted"],
    ["closed", UserStatus.CLOSED, "auth.user.closed"],
    ["denied", UserStatus.DENIED, "auth.user.denied"],
  ])(
    "go to no %s user: the deliveries, a recovery's included, answer its status code",
    async (_, status, expected) => {
      const user = await userOf({ status });
      expect(await codeOf(smsOf(user, OtpPurpose.LOGIN))).toBe(expected);
      expect(await codeOf(smsOf(user, OtpPurpose.RECOVERY))).toBe(expected);
      expect(await codeOf(identity.getMailDelivery(user))).toBe(expected);
    },
  );

  it("go to no user of a suspended company: auth.restricted", async () => {
    const { company: other } = await identity.createCompany({ code: code(), name: "Suspended" });
    if (!other) throw new Error("no company");
    const { user: created } = await identity.createUser(
      newUser(other, { phone: "+12015558999", email: "s@example.com" }),
    );
    const user = { companyId: other.id, userId: created?.id ?? "" };
    expect(await codeOf(smsOf(user, OtpPurpose.LOGIN))).toBe("ok");
    await identity.updateCompany({ companyId: other.id, suspended: true });
    expect(await codeOf(smsOf(user, OtpPurpose.LOGIN))).toBe("auth.restricted");
    expect(await codeOf(smsOf(user, OtpPurpose.RECOVERY))).toBe("auth.restricted");
    expect(await codeOf(identity.getMailDelivery(user))).toBe("auth.restricted");
  });
});

describe('the deliveries answer the company\'s texts (docs/decisions.md, "Languages")', () => {
  it("of their namespace, the single templates among them as texts of the default language where it has none", async () => {
    const own = [
      { language: "de", namespace: "sms", key: "login", text: "Anmeldung: {code}" },
      { language: "fr", namespace: "mail", key: "recovery.subject", text: "{company} : accès" },
      { language: "de", namespace: "page", key: "identify.title", text: "Willkommen" },
    ];
    const { company } = await identity.createCompany({
      code: code(),
      name: "Texts",
      policy: companyPolicy({
        defaultLanguage: "de",
        texts: own,
        sms: smsSettings({ loginTemplate: "Code {code}", recoveryTemplate: "Zugang: {code}" }),
        mail: { smtpUrl: "", from: "", subjectTemplate: "{company}: Zugang" },
      }),
    });
    const { user } = await identity.createUser(
      newUser(company as Company, {
        phone: "+12025550123",
        email: "ann@example.com",
        password: "password-1",
      }),
    );
    const ids = { companyId: company?.id ?? "", userId: user?.id ?? "" };
    const sms = await identity.getSmsDelivery({ ...ids, purpose: OtpPurpose.LOGIN });
    const mail = await identity.getMailDelivery(ids);
    expect(sms).toMatchObject({ defaultLanguage: "de" });
    expect(sms.texts).toEqual([
      own[0],
      { language: "de", namespace: "sms", key: "recovery", text: "Zugang: {code}" },
    ]);
    expect(mail).toMatchObject({ defaultLanguage: "de" });
    expect(mail.texts).toEqual([
      own[1],
      { language: "de", namespace: "mail", key: "recovery.subject", text: "{company}: Zugang" },
    ]);
  });
});

describe("OAuth provider slots", () => {
  let company: Company;
  const settings = (overrides: Partial<OAuthProviderSettings> = {}): OAuthProviderSettings => ({
    slot: 1,
    kind: ProviderKind.OIDC,
    name: "Corp SSO",
    issuer: "https://sso.example.com",
    authorizationEndpoint: "",
    tokenEndpoint: "",
    userinfoEndpoint: "",
    clientId: "client",
    clientSecret: "very-secret",
    redirectUris: ["https://app.example.com/cb"],
    scopes: [],
    subjectClaim: "",
    trustsProviderMfa: false,
    mfaAcrValues: [],
    maxAgeSeconds: 0,
    ...overrides,
  });
  const errorOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: AuthError) => error,
    );
  beforeAll(async () => {
    company = (await identity.createCompany({ code: code(), name: "OAuth" })).company as Company;
  });

  it("are listed with their defaults and never with the secret", async () => {
    await identity.setOAuthProvider({ companyId: company.id, settings: settings() });
    const { providers } = await identity.listOAuthProviders({ companyId: company.id });
    expect(providers).toEqual([
      expect.objectContaining({
        slot: 1,
        scopes: ["openid"],
        subjectClaim: "sub",
        name: "Corp SSO",
        trustsProviderMfa: false,
        mfaAcrValues: [],
        maxAgeSeconds: 0,
        publicClient: false,
      }),
    ]);
    expect(JSON.stringify(providers)).not.toContain("very-secret");
  });

  it("keep an OpenID Connect slot's trust in the provider's multi-factor logins and its max_age, and show a slot without a secret as a public client", async () => {
    const mfa = {
      trustsProviderMfa: true,
      mfaAcrValues: ["phr", "urn:example:acr:mfa"],
      maxAgeSeconds: 3_600,
    };
    const { company: own } = await identity.createCompany({ code: code(), name: "Public" });
    const companyId = own?.id ?? "";
    const { provider } = await identity.setOAuthProvider({
      companyId,
      settings: settings({ clientSecret: "", ...mfa }),
    });
    expect(provider).toMatchObject({ ...mfa, publicClient: true });
    expect((await identity.listOAuthProviders({ companyId })).providers).toEqual([
      expect.objectContaining({ ...mfa, publicClient: true }),
    ]);
  });

  it.each([
    ["trusts_provider_mfa", { trustsProviderMfa: true }, "trustsProviderMfa"],
    ["mfa_acr_values", { mfaAcrValues: ["phr"] }, "mfaAcrValues"],
    ["max_age_seconds", { maxAgeSeconds: 60 }, "maxAgeSeconds"],
  ])("refuse %s for a plain OAuth 2.0 slot, which has no ID token to prove it", async (_, field, path) => {
    const plain = settings({
      kind: ProviderKind.OAUTH2,
      tokenEndpoint: "https://x.example.com/t",
      userinfoEndpoint: "https://x.example.com/u",
      ...field,
    });
    const error = await errorOf(identity.setOAuthProvider({ companyId: company.id, settings: plain }));
    expect(error?.code).toBe("request.validation.failed");
    expect(error?.message).toContain(`${path}: is for OpenID Connect only`);
  });

  it.each([
    ["slot 6", { slot: 6 }],
    ["slot 0", { slot: 0 }],
    ["OpenID Connect without an issuer", { issuer: "" }],
    [
      "plain OAuth 2.0 without a userinfo endpoint",
      { kind: ProviderKind.OAUTH2, tokenEndpoint: "https://x.example.com/t" },
    ],
    ["no redirect URI", { redirectUris: [] }],
    ["a redirect URI with a query", { redirectUris: ["https://app.example.com/cb?x=1"] }],
    ["no client id", { clientId: "" }],
    ["an acr value with a space", { mfaAcrValues: ["two words"] }],
    ["a max_age over a year", { maxAgeSeconds: 367 * 24 * 3600 }],
  ])("refuse %s with request.validation.failed", async (_, overrides) => {
    expect(
      await codeOf(identity.setOAuthProvider({ companyId: company.id, settings: settings(overrides) })),
    ).toBe("request.validation.failed");
  });

  it("link users only in a configured slot, once per subject", async () => {
    const { user } = await identity.createUser(
      newUser(company, { loginName: "olga", password: "password-1" }),
    );
    const link = (slot: number) =>
      identity.linkOAuthIdentity({ companyId: company.id, userId: user?.id ?? "", slot, subject: "s-1" });
    expect(await codeOf(link(4))).toBe("resource.notfound");
    expect(await codeOf(link(1))).toBe("ok");
    expect(await codeOf(link(1))).toBe("resource.exists");
  });

  it("answer an exchange in an empty slot with request.validation.failed", async () => {
    const exchange = identity.exchangeOAuthCode({
      companyId: company.id,
      slot: 5,
      code: "c",
      redirectUri: "https://app.example.com/cb",
    });
    expect(await codeOf(exchange)).toBe("request.validation.failed");
  });

  it("are emptied with their links", async () => {
    await identity.setOAuthProvider({ companyId: company.id, settings: settings({ slot: 2 }) });
    await identity.deleteOAuthProvider({ companyId: company.id, slot: 2 });
    expect(
      (await identity.listOAuthProviders({ companyId: company.id })).providers.map((p) => p.slot),
    ).toEqual([1]);
    expect(await codeOf(identity.deleteOAuthProvider({ companyId: company.id, slot: 2 }))).toBe(
      "resource.notfound",
    );
  });
});

describe("administrative calls", () => {
  it("are refused without the admin token, while the login flow's calls are not", async () => {
    const server = servers[0];
    const anonymous = createServiceClient(IdentityServiceService, `127.0.0.1:${server?.port}`, {
      deadlineMs: 5_000,
      transport: { kind: "plaintext" },
      server: "identity",
    });
    clients.push(anonymous);
    expect(await codeOf(anonymous.createCompany({ code: code(), name: "x" }))).toBe("admin.unauthenticated");
    expect(await codeOf(anonymous.listCompanies({ pageSize: 0, pageToken: "" }))).toBe(
      "admin.unauthenticated",
    );
    const { company } = await identity.createCompany({ code: code(), name: "Open" });
    expect(await codeOf(anonymous.findUser({ companyId: company?.id ?? "", loginId: "x" }))).toBe("ok");
  });
});

describe("RemovePasskey over plain text (the development flag)", () => {
  it("takes a call with the admin token for an operator's, which ends the user's sessions, and one without for the gateway's", async () => {
    const { company } = await identity.createCompany({ code: code(), name: "Keys" });
    const companyId = company?.id ?? "";
    const { user } = await identity.createUser(newUser(company as Company, { password: "password-1" }));
    const userId = user?.id ?? "";
    const passkeyOf = async () => {
      const row = await new IdentityStore(database.db).passkeys.add(
        {
          companyId,
          userId,
          credentialId: randomBytes(16).toString("base64url"),
          publicKey: new Uint8Array(randomBytes(77)),
          signCount: 0,
          transports: [],
          backedUp: false,
          userVerified: false,
          name: "Passkey",
        },
        systemOrigin,
      );
      return { companyId, userId, passkeyId: row?.id ?? "" };
    };
    const gateway = createServiceClient(IdentityServiceService, `127.0.0.1:${servers[0]?.port}`, {
      deadlineMs: 5_000,
      transport: { kind: "plaintext" },
      server: "identity",
    });
    clients.push(gateway);
    const revokedBefore = userSessions.revoked.length;
    expect(await gateway.removePasskey(await passkeyOf())).toEqual({ removed: true });
    expect(userSessions.revoked).toHaveLength(revokedBefore);
    expect(await identity.removePasskey(await passkeyOf())).toEqual({ removed: true });
    expect(userSessions.revoked.slice(revokedBefore)).toEqual([{ companyId, userId }]);
  });
});

describe("ListCompanies", () => {
  it("pages through the companies by code", async () => {
    const prefix = `page${Date.now().toString(36)}`;
    for (const suffix of ["a", "b", "c"])
      await identity.createCompany({ code: `${prefix}${suffix}`, name: suffix });
    const seen: string[] = [];
    let pageToken = `${prefix}`;
    for (;;) {
      const page = await identity.listCompanies({ pageSize: 2, pageToken });
      seen.push(...page.companies.map((c) => c.code).filter((c) => c.startsWith(prefix)));
      if (!page.nextPageToken) break;
      pageToken = page.nextPageToken;
    }
    expect(seen).toEqual([`${prefix}a`, `${prefix}b`, `${prefix}c`]);
  });
});

describe("API key administration", () => {
  let company: Company;
  beforeAll(async () => {
    company = (await identity.createCompany({ code: code(), name: "Keys" })).company as Company;
  });
  const works = async (apiKey: string) =>
    codeOf(identity.authenticateApiKey({ companyCode: company.code, apiKey })).then(
      (result) => result === "ok",
    );

  it("lists keys with their labels, never the keys", async () => {
    const { apiKey, keyId } = await identity.createApiKey({ companyId: company.id, label: "mobile app" });
    const { apiKeys } = await identity.listApiKeys({ companyId: company.id });
    expect(apiKeys.find((key) => key.keyId === keyId)).toMatchObject({
      label: "mobile app",
      revokedAt: undefined,
    });
    expect(JSON.stringify(apiKeys)).not.toContain(apiKey);
  });

  it("revokes a key at once", async () => {
    const { apiKey, keyId } = await identity.createApiKey({ companyId: company.id, label: "" });
    await identity.revokeApiKey({ companyId: company.id, keyId });
    expect(await works(apiKey)).toBe(false);
  });

  it("rotates a key: the new one works, the old one until the overlap ends", async () => {
    const { apiKey: old, keyId } = await identity.createApiKey({ companyId: company.id, label: "web" });
    const rotated = await identity.rotateApiKey({ companyId: company.id, keyId, overlapSeconds: 3_600 });
    expect(await works(rotated.apiKey)).toBe(true);
    expect(await works(old)).toBe(true);
    const again = await identity.rotateApiKey({
      companyId: company.id,
      keyId: rotated.keyId,
      overlapSeconds: 0,
    });
    expect(await works(rotated.apiKey)).toBe(false);
    expect(await works(again.apiKey)).toBe(true);
  });

  it("answers resource.notfound for a key of another company", async () => {
    const { company: other } = await identity.createCompany({ code: code(), name: "Other" });
    const { keyId } = await identity.createApiKey({ companyId: other?.id ?? "", label: "" });
    expect(await codeOf(identity.revokeApiKey({ companyId: company.id, keyId }))).toBe("resource.notfound");
  });
});

describe("UpdateUser and ListUsers", () => {
  let company: Company;
  let userId: string;
  beforeAll(async () => {
    company = (await identity.createCompany({ code: code(), name: "Updates" })).company as Company;
    const { user } = await identity.createUser(
      newUser(company, { loginName: "fay", phone: "+12015550188", password: "password-1" }),
    );
    userId = user?.id ?? "";
  });
  const update = (changes: Partial<Parameters<Client["updateUser"]>[0]>) =>
    identity.updateUser({ companyId: company.id, userId, ...changes });

  it("changes identifiers, status, role and flags, normalised", async () => {
    const { user } = await update({
      email: "Fay@Example.com",
      loginName: " Fay.B ",
      status: UserStatus.RESTRICTED,
      role: "staff",
      secondFactorRequired: true,
    });
    expect(user).toMatchObject({
      email: "fay@example.com",
      loginName: "fay.b",
      status: UserStatus.RESTRICTED,
      role: "staff",
      authenticators: { secondFactorRequired: true },
    });
    expect((await update({ loginName: "" })).user?.loginName).toBeUndefined();
  });

  it("sets a password and a control question", async () => {
    await update({ password: "admin-set-password", controlQuestion: "Colour?", controlAnswer: "Blue" });
    expect(
      (
        await identity.verifyPassword({
          companyId: company.id,
          userId,
          password: "admin-set-password",
          clientAddress,
        })
      ).valid,
    ).toBe(true);
    expect(
      (await identity.verifyControlAnswer({ companyId: company.id, userId, answer: " blue " })).valid,
    ).toBe(true);
  });

  it("ends the user's sessions when the password, the phone or the need of a second factor changes (docs/security.md)", async () => {
    const revokedAfter = async (changes: Parameters<typeof update>[0]) => {
      userSessions.revoked = [];
      await update(changes);
      return userSessions.revoked;
    };
    // Before the write and after it.
    const ended = [
      { companyId: company.id, userId },
      { companyId: company.id, userId },
    ];
    expect(await revokedAfter({ secondFactorRequired: false })).toEqual(ended);
    expect(await revokedAfter({ secondFactorRequired: false })).toEqual([]);
    expect(await revokedAfter({ secondFactorRequired: true })).toEqual(ended);
    expect(await revokedAfter({ phone: "+12015550199" })).toEqual(ended);
    expect(await revokedAfter({ phone: "+1 201 555 0199" })).toEqual([]);
    expect(await revokedAfter({ password: "another-admin-password" })).toEqual(ended);
    expect(await revokedAfter({ email: "fay@example.org", profileMnemocode: "P-9" })).toEqual([]);
  });

  it("keeps a password or a phone", async () => {
    await update({ phone: "" });
    expect(await codeOf(update({ password: "" }))).toBe("request.validation.failed");
    await update({ phone: "+12015550188" });
    expect(await codeOf(update({ password: "" }))).toBe("ok");
  });

  it("refuses bad input without changing anything", async () => {
    const before = (await identity.getUser({ companyId: company.id, userId })).user;
    expect(await codeOf(update({ phone: "12", role: "changed" }))).toBe("request.validation.failed");
    expect(await codeOf(update({ controlQuestion: "Q?", role: "changed" }))).toBe(
      "request.validation.failed",
    );
    expect((await identity.getUser({ companyId: company.id, userId })).user).toEqual(before);
  });

  it("pages through the company's users", async () => {
    for (let i = 0; i < 3; i += 1)
      await identity.createUser(newUser(company, { loginName: `page-${i}`, password: "password-1" }));
    const first = await identity.listUsers({ companyId: company.id, pageSize: 3, pageToken: "" });
    const second = await identity.listUsers({
      companyId: company.id,
      pageSize: 3,
      pageToken: first.nextPageToken,
    });
    expect(first.users).toHaveLength(3);
    expect(second.users).toHaveLength(1);
    expect(second.nextPageToken).toBe("");
  });
});
