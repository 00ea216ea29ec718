import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MailMessage, SmsMessage } from "@auth/delivery";
import { MemoryOutbox } from "@auth/delivery";
import type { AuthError } from "@auth/errors";
import {
  createServiceClient,
  hashAdminToken,
  type RunningGrpcServer,
  type ServiceClient,
} from "@auth/grpc-kit";
import { ensureDevPki, mtlsTransport, type TlsFiles, tlsEnvironment } from "@auth/grpc-kit/dev-pki";
import {
  type Company,
  IdentityServiceService,
  NotificationEvent,
  type NotificationTemplate,
} from "@auth/proto/identity";
import { CheckOutcome, SessionState } from "@auth/proto/session";
import { createLogger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { testBudgets } from "@auth/testing";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { identityAccess } from "../access.js";
import { seedCompany, seedUser, startIdentityForTests, type UserOptions } from "../testing.js";

type Client = ServiceClient<typeof IdentityServiceService>;
const adminToken = randomBytes(32).toString("base64url");
const holders = ["identity", "session", "gateway", "otp", "recovery", "operator"] as const;
type Holder = (typeof holders)[number];

/** A notice is sent in the background: the time a loaded machine may take to send it. */
const waitMs = 20_000;
const mail = new MemoryOutbox<MailMessage>();
const sms = new MemoryOutbox<SmsMessage>();
const dataDir = mkdtempSync(join(tmpdir(), "identity-notices-"));
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
      reportSecretCheck: async () => ({ sessionEnded: false }),
      revokeUserSessions: async () => ({ revoked: 0 }),
      recordFederatedLogin: async () => ({ checkId: "federated-check" }),
      // A session claimed for a password change of the user its token names ("company/user").
      getCredentialChange: async ({ sessionToken }) => {
        const [companyId = "", userId = ""] = sessionToken.split("/");
        return { claimed: true, companyId, userId, state: SessionState.SETPASSWORD };
      },
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

async function companyWith(templates: NotificationTemplate[] = []) {
  return seedCompany(clients.operator, { notificationTemplates: templates });
}

async function userOf(company: { id: string }, options: UserOptions = {}) {
  return seedUser(clients.operator, company.id, options);
}

/** Waits for the notices to this address, in the order sent, once there are `count` of them. */
async function noticesTo(outbox: MemoryOutbox<MailMessage | SmsMessage>, to: string, count = 1) {
  const of = () => outbox.messages.filter((message) => message.to === to && message.notification);
  await vi.waitFor(() => expect(of()).toHaveLength(count), { timeout: waitMs });
  return of();
}

const skipped = async (event: string) =>
  (await metrics.notifications.get()).values.find(
    (value) =>
      value.labels.event === event && value.labels.channel === "none" && value.labels.outcome === "skipped",
  )?.value ?? 0;

describe("NotifyUser", () => {
  it("is the session service's only: every other caller is refused", () => {
    expect(identityAccess.notifyUser).toEqual(["session"]);
  });

  it.each(["gateway", "otp", "recovery", "operator"] as const)("refuses the %s", async (holder) => {
    const company = await companyWith();
    const user = await userOf(company);
    const request = { companyId: company.id, userId: user.id, event: NotificationEvent.LOCKED_OUT };
    expect(await codeOf(clients[holder].notifyUser(request))).toBe("caller.forbidden");
  });

  it.each([
    [NotificationEvent.RECOVERY_STARTED, "recovery_started", "Access recovery of your"],
    [NotificationEvent.RECOVERY_COMPLETED, "recovery_completed", "was recovered"],
    [NotificationEvent.LOCKED_OUT, "locked_out", "is locked"],
  ])("sends one e-mail for the session service's event %s", async (event, name, subject) => {
    const company = await companyWith();
    const user = await userOf(company);
    await clients.session.notifyUser({ companyId: company.id, userId: user.id, event });
    const [notice] = await noticesTo(mail, user.email);
    expect(notice).toMatchObject({ companyId: company.id, notification: name });
    expect((notice as MailMessage).subject).toContain(subject);
    expect(notice?.text).toContain("If this was not you");
  });

  it("refuses the events identity tells of itself", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const request = { companyId: company.id, userId: user.id, event: NotificationEvent.PASSWORD_CHANGED };
    expect(await codeOf(clients.session.notifyUser(request))).toBe("request.validation.failed");
  });
});

describe("the notices identity sends itself", () => {
  it("tells of a password the user set (SetPassword), without the password", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const newPassword = `a new and long passphrase ${randomBytes(4).toString("hex")}`;
    await clients.gateway.setPassword({
      companyId: company.id,
      userId: user.id,
      newPassword,
      validateOnly: false,
      sessionToken: `${company.id}/${user.id}`,
    });
    const [notice] = await noticesTo(mail, user.email);
    expect(notice?.notification).toBe("password_changed");
    expect(JSON.stringify(notice)).not.toContain(newPassword);
  });

  it("tells of a password an operator set (UpdateUser), without the password", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const password = `operator-set-${randomBytes(6).toString("hex")}`;
    await clients.operator.updateUser({ companyId: company.id, userId: user.id, password });
    const [notice] = await noticesTo(mail, user.email);
    expect(notice?.notification).toBe("password_changed");
    expect(JSON.stringify(notice)).not.toContain(password);
  });

  it("tells of a new set of backup codes, without any code", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { backupCodes } = await clients.operator.generateBackupCodes({
      companyId: company.id,
      userId: user.id,
    });
    const [notice] = await noticesTo(mail, user.email);
    expect(notice?.notification).toBe("backup_codes_issued");
    const text = JSON.stringify(notice).toUpperCase();
    for (const code of backupCodes) {
      expect(text).not.toContain(code.toUpperCase());
      for (const group of code.split("-")) expect(text).not.toContain(group.toUpperCase());
    }
  });
});

describe("the notices of an authenticator app", () => {
  it("tell of an app set up (ConfirmTotpEnrolment) and of its removal (RemoveTotp), without its secret or code", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const { secret } = await clients.gateway.beginTotpEnrolment({ companyId: company.id, userId: user.id });
    const code = await generate({ secret });
    const confirmed = await clients.gateway.confirmTotpEnrolment({
      companyId: company.id,
      userId: user.id,
      code,
      clientAddress: "192.0.2.10",
    });
    expect(confirmed.enrolled).toBe(true);
    const [added] = await noticesTo(mail, user.email);
    expect(added?.notification).toBe("authenticator_app_added");
    await clients.operator.removeTotp({ companyId: company.id, userId: user.id });
    const [, removed] = await noticesTo(mail, user.email, 2);
    expect(removed?.notification).toBe("authenticator_app_removed");
    for (const notice of [added, removed]) {
      expect(JSON.stringify(notice)).not.toContain(secret);
      expect(JSON.stringify(notice)).not.toContain(code);
    }
  });
});

describe("the channel of a notice", () => {
  it("is the user's e-mail when the user has one, and only that", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    await clients.session.notifyUser({
      companyId: company.id,
      userId: user.id,
      event: NotificationEvent.LOCKED_OUT,
    });
    await noticesTo(mail, user.email);
    expect(sms.messages.filter((message) => message.to === user.phone)).toEqual([]);
  });

  it("is an SMS to the user's phone when the user has no e-mail", async () => {
    const company = await companyWith();
    const user = await userOf(company, { email: null });
    await clients.session.notifyUser({
      companyId: company.id,
      userId: user.id,
      event: NotificationEvent.LOCKED_OUT,
    });
    const [notice] = await noticesTo(sms, user.phone);
    expect(notice).toMatchObject({ companyId: company.id, notification: "locked_out" });
    expect(notice?.text).toContain(company.code);
  });

  it("is none when the user has neither: the notice is counted as skipped", async () => {
    const company = await companyWith();
    const user = await userOf(company, { email: null, phone: null });
    const before = await skipped("recovery_completed");
    await clients.session.notifyUser({
      companyId: company.id,
      userId: user.id,
      event: NotificationEvent.RECOVERY_COMPLETED,
    });
    await vi.waitFor(async () => expect(await skipped("recovery_completed")).toBe(before + 1), {
      timeout: waitMs,
    });
  });
});

describe("the company's templates (CompanyPolicy.notification_templates)", () => {
  it("word the notice, with {company} and {time} filled; other events keep the service's wording", async () => {
    const company = await companyWith([
      {
        event: NotificationEvent.LOCKED_OUT,
        subject: "{company}: locked",
        body: "Locked at {time}. Call the help desk.",
        smsText: "Locked at {time}.",
      },
    ]);
    const user = await userOf(company);
    await clients.session.notifyUser({
      companyId: company.id,
      userId: user.id,
      event: NotificationEvent.LOCKED_OUT,
    });
    const [notice] = (await noticesTo(mail, user.email)) as MailMessage[];
    expect(notice?.subject).toBe(`Test ${company.code}: locked`);
    expect(notice?.text).toMatch(/^Locked at \d{4}-\d\d-\d\d \d\d:\d\d UTC\. Call the help desk\.$/);
    await clients.session.notifyUser({
      companyId: company.id,
      userId: user.id,
      event: NotificationEvent.RECOVERY_STARTED,
    });
    const [, other] = (await noticesTo(mail, user.email, 2)) as MailMessage[];
    expect(other?.subject).toBe(`Access recovery of your Test ${company.code} account started`);
  });

  it.each([
    [
      "an unknown placeholder",
      [{ event: NotificationEvent.LOCKED_OUT, body: "Your code {code}" }],
      "{company} and {time}",
    ],
    [
      "an event twice",
      [{ event: NotificationEvent.LOCKED_OUT }, { event: NotificationEvent.LOCKED_OUT }],
      "must not repeat an event",
    ],
    [
      "no event",
      [{ event: NotificationEvent.UNSPECIFIED }],
      "must be one of PASSWORD_CHANGED, RECOVERY_STARTED",
    ],
    [
      "an SMS text over 320 characters",
      [{ event: NotificationEvent.LOCKED_OUT, smsText: "x".repeat(321) }],
      "320",
    ],
  ])("are refused with a clear error on UpdateCompany: %s", async (_, templates, message) => {
    const company = await companyWith();
    const { company: stored } = await clients.operator.getCompany({ code: company.code });
    const error = (await clients.operator
      .updateCompany({
        companyId: company.id,
        policy: { ...(stored as Company).policy!, notificationTemplates: templates },
      })
      .catch((e) => e)) as AuthError;
    expect(error.code).toBe("request.validation.failed");
    expect(error.message).toContain("notificationTemplates");
    expect(error.message).toContain(message);
  });
});
