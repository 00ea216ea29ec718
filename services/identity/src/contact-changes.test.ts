import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MailMessage, MemoryOutbox, type SmsMessage } from "@auth/delivery";
import type { AuthError } from "@auth/errors";
import {
  createServiceClient,
  hashAdminToken,
  type RunningGrpcServer,
  type ServiceClient,
} from "@auth/grpc-kit";
import { ensureDevPki, mtlsTransport, type TlsFiles, tlsEnvironment } from "@auth/grpc-kit/dev-pki";
import { ContactKind, IdentityServiceService } from "@auth/proto/identity";
import { OtpPurpose } from "@auth/proto/otp";
import { LinkPurpose } from "@auth/proto/recovery";
import { CheckOutcome, SessionState } from "@auth/proto/session";
import { createLogger } from "@auth/runtime";
import { testBudgets } from "@auth/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FakePasskeySessions,
  noCredentialChange,
  randomPhone,
  seedCompany,
  seedUser,
  startIdentityForTests,
} from "./testing.js";

type Client = ServiceClient<typeof IdentityServiceService>;
const adminToken = randomBytes(32).toString("base64url");
const holders = ["identity", "gateway", "operator", "otp", "recovery"] as const;
type Holder = (typeof holders)[number];
/** A notice is sent in the background: the time a loaded machine may take to send it. */
const waitMs = 20_000;

const sessions = new FakePasskeySessions();
const mail = new MemoryOutbox<MailMessage>();
const sms = new MemoryOutbox<SmsMessage>();
const dataDir = mkdtempSync(join(tmpdir(), "identity-contact-"));
let server: RunningGrpcServer;
const clients = {} as Record<Holder, Client>;

beforeAll(async () => {
  const pki = (await ensureDevPki(join(dataDir, "pki"), [...holders])) as Record<Holder, TlsFiles>;
  server = await startIdentityForTests({
    env: { ...tlsEnvironment(pki.identity), ADMIN_TOKEN_SHA256: hashAdminToken(adminToken) },
    session: {
      reserveSecretCheck: async () => ({
        outcome: CheckOutcome.ALLOWED,
        checkId: "check",
        retryAfterSeconds: 0,
        captchaRequired: false,
        credentialGeneration: "1",
      }),
      reportSecretCheck: async () => ({ sessionEnded: false, lockedOutUserId: "" }),
      revokeUserSessions: async () => ({ revoked: 0 }),
      recordFederatedLogin: async () => ({ checkId: "federated-check" }),
      getCredentialChange: async () => noCredentialChange,
      ...sessions.calls,
    },
    logger: createLogger("identity", "silent"),
    notices: { mail, sms },
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

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: AuthError) => error.code,
  );

type Company = Awaited<ReturnType<typeof seedCompany>>;

/** A company with a recovery page, whose users get three recovery messages an hour. */
const newCompany = () =>
  seedCompany(clients.operator, {
    recoveryMessagesPerHour: 3,
    recovery: { order: [], disabled: [], disabledByRole: {}, linkBase: "https://app.example/recover" },
  });

/** A user of the company and the token of an authorized session of the user's. */
async function signedIn(company: Company) {
  const user = await seedUser(clients.operator, company.id);
  return { user, sessionToken: sessions.open(company.id, user.id, SessionState.AUTHORIZED) };
}

const begin = (company: Company, sessionToken: string, kind: ContactKind, address: string) =>
  clients.gateway.beginContactChange({ companyId: company.id, sessionToken, kind, address });

const userOf = async (company: Company, userId: string) =>
  (await clients.operator.getUser({ companyId: company.id, userId })).user;

describe("who may change an address (docs/security.md, Trust between the services)", () => {
  it("the gateway begins a change; only the owners of the code and the link apply one", async () => {
    const company = await newCompany();
    const { user } = await signedIn(company);
    const apply = (holder: Holder) =>
      codeOf(
        clients[holder].applyContactChange({
          companyId: company.id,
          userId: user.id,
          kind: ContactKind.EMAIL,
          address: "someone@example.org",
        }),
      );
    expect(await apply("gateway")).toBe("caller.forbidden");
    expect(await apply("operator")).toBe("caller.forbidden");
    expect(await apply("otp")).toBe("ok");
    expect(await apply("recovery")).toBe("ok");
    expect(
      await codeOf(
        clients.otp.beginContactChange({
          companyId: company.id,
          sessionToken: "x",
          kind: ContactKind.EMAIL,
          address: "a@example.org",
        }),
      ),
    ).toBe("caller.forbidden");
  });
});

describe("BeginContactChange", () => {
  it("keeps the address pending for the token's session's user, and changes nothing yet", async () => {
    const company = await newCompany();
    const { user, sessionToken } = await signedIn(company);
    const phone = randomPhone();
    expect(await begin(company, sessionToken, ContactKind.PHONE, phone.slice(2))).toEqual({
      userId: user.id,
      address: phone,
    });
    expect((await userOf(company, user.id))?.phone).toBe(user.phone);
  });

  it("refuses a token of no authorized session: auth.token.invalid", async () => {
    const company = await newCompany();
    const user = await seedUser(clients.operator, company.id);
    const atLogin = sessions.open(company.id, user.id, SessionState.CHECKOTP);
    expect(await codeOf(begin(company, atLogin, ContactKind.EMAIL, "a@example.org"))).toBe(
      "auth.token.invalid",
    );
    expect(await codeOf(begin(company, "unknown", ContactKind.EMAIL, "a@example.org"))).toBe(
      "auth.token.invalid",
    );
  });

  it("refuses another user's phone or e-mail with auth.contact.unavailable, and the user's own", async () => {
    const company = await newCompany();
    const other = await seedUser(clients.operator, company.id);
    const { user, sessionToken } = await signedIn(company);
    for (const [kind, address] of [
      [ContactKind.PHONE, other.phone],
      [ContactKind.EMAIL, other.email.toUpperCase()],
    ] as const)
      expect(await codeOf(begin(company, sessionToken, kind, address))).toBe("auth.contact.unavailable");
    expect(await codeOf(begin(company, sessionToken, ContactKind.EMAIL, user.email))).toBe(
      "request.validation.failed",
    );
    expect(await codeOf(begin(company, sessionToken, ContactKind.EMAIL, "not an address"))).toBe(
      "request.validation.failed",
    );
  });
});

describe("the deliveries of a change's code and link", () => {
  it("answer the pending address, spending one of the user's recovery messages each; none pending, nothing", async () => {
    const company = await newCompany();
    const { user, sessionToken } = await signedIn(company);
    const ids = { companyId: company.id, userId: user.id };
    const smsChange = () => clients.otp.getSmsDelivery({ ...ids, purpose: OtpPurpose.PHONE_CHANGE });
    expect((await smsChange()).phone).toBeUndefined();
    const phone = randomPhone();
    await begin(company, sessionToken, ContactKind.PHONE, phone);
    await begin(company, sessionToken, ContactKind.EMAIL, "new@example.org");
    expect((await smsChange()).phone).toBe(phone);
    const mailChange = await clients.recovery.getMailDelivery({ ...ids, purpose: LinkPurpose.EMAIL_CHANGE });
    expect(mailChange.email).toBe("new@example.org");
    expect((await smsChange()).phone).toBe(phone);
    expect(await codeOf(smsChange())).toBe("request.ratelimit.exceeded");
    // The recovery's own deliveries are still the user's addresses.
    expect((await clients.otp.getSmsDelivery({ ...ids, purpose: OtpPurpose.LOGIN })).phone).toBe(user.phone);
  });
});

describe("ApplyContactChange", () => {
  it("writes only the pending address it is given, once, and the old addresses are told", async () => {
    const company = await newCompany();
    const { user, sessionToken } = await signedIn(company);
    const phone = randomPhone();
    await begin(company, sessionToken, ContactKind.PHONE, phone);
    const apply = (address: string) =>
      clients.otp.applyContactChange({
        companyId: company.id,
        userId: user.id,
        kind: ContactKind.PHONE,
        address,
      });
    expect(await apply(randomPhone())).toEqual({ applied: false });
    expect(await apply(phone)).toEqual({ applied: true });
    expect(await apply(phone)).toEqual({ applied: false });
    expect((await userOf(company, user.id))?.phone).toBe(phone);
    await expect
      .poll(
        () => sms.messages.filter((message) => message.to === user.phone).map((message) => message.text),
        {
          timeout: waitMs,
        },
      )
      .toEqual([expect.stringMatching(/phone number of your account was changed/)]);
    await expect
      .poll(
        () => mail.messages.filter((message) => message.to === user.email).map((message) => message.subject),
        {
          timeout: waitMs,
        },
      )
      .toEqual([expect.stringMatching(/^The phone number of your .* account was changed$/)]);
    expect(sms.messages.filter((message) => message.to === phone)).toEqual([]);
  });

  it("tells a changed e-mail to the old address only", async () => {
    const company = await newCompany();
    const { user, sessionToken } = await signedIn(company);
    const email = `new-${user.loginName}@example.org`;
    await begin(company, sessionToken, ContactKind.EMAIL, email);
    expect(
      await clients.recovery.applyContactChange({
        companyId: company.id,
        userId: user.id,
        kind: ContactKind.EMAIL,
        address: email,
      }),
    ).toEqual({ applied: true });
    await expect
      .poll(
        () => mail.messages.filter((message) => message.to === user.email).map((message) => message.subject),
        {
          timeout: waitMs,
        },
      )
      .toEqual([expect.stringMatching(/^The e-mail address of your .* account was changed$/)]);
    expect(mail.messages.filter((message) => message.to === email)).toEqual([]);
    expect(sms.messages.filter((message) => message.to === user.phone)).toEqual([]);
  });

  it.each([
    ["phone", ContactKind.PHONE],
    ["e-mail", ContactKind.EMAIL],
  ])(
    "of two users racing for one %s, exactly one gets it; the other is auth.contact.unavailable",
    async (_, kind) => {
      const company = await newCompany();
      const racers = [await signedIn(company), await signedIn(company)];
      const address =
        kind === ContactKind.PHONE ? randomPhone() : `race-${randomBytes(4).toString("hex")}@example.org`;
      for (const racer of racers) await begin(company, racer.sessionToken, kind, address);
      const results = await Promise.all(
        racers.map(({ user }) =>
          codeOf(clients.otp.applyContactChange({ companyId: company.id, userId: user.id, kind, address })),
        ),
      );
      expect(results.sort()).toEqual(["auth.contact.unavailable", "ok"]);
      const holders = await Promise.all(racers.map(({ user }) => userOf(company, user.id)));
      const field = kind === ContactKind.PHONE ? "phone" : "email";
      expect(holders.filter((holder) => holder?.[field] === address)).toHaveLength(1);
    },
  );
});
