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
  type CompanyPolicy,
  IdentityServiceService,
  NotificationEvent,
  type NotificationTemplate,
} from "@auth/proto/identity";
import { OtpPurpose } from "@auth/proto/otp";
import { CheckOutcome } from "@auth/proto/session";
import { createLogger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { testBudgets } from "@auth/testing";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { identityAccess } from "../access.js";
import {
  claimedCredentialChange,
  FakePasskeySessions,
  seedCompany,
  seedUser,
  startIdentityForTests,
  type UserOptions,
} from "../testing.js";

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
/** The user the session service answers a wrong check locked out, for the next reports. */
let lockingOut = "";

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
      reportSecretCheck: async () => ({ sessionEnded: false, lockedOutUserId: lockingOut }),
      revokeUserSessions: async () => ({ revoked: 0 }),
      recordFederatedLogin: async () => ({ checkId: "federated-check" }),
      ...new FakePasskeySessions().calls,
      // A session claimed for a password change of the user its token names ("company/user"), each
      // call another claim: every change here is a new one.
      getCredentialChange: async ({ sessionToken }) => {
        const [companyId = "", userId = ""] = sessionToken.split("/");
        return claimedCredentialChange(`${sessionToken}/${randomBytes(8).toString("hex")}`, {
          companyId,
          userId,
        });
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

/** The notices of an event so far that were sent or held back by the cap, by outcome. */
async function outcomesOf(event: string) {
  const values = (await metrics.notifications.get()).values.filter((value) => value.labels.event === event);
  const of = (outcome: string) =>
    values.filter((value) => value.labels.outcome === outcome).reduce((sum, value) => sum + value.value, 0);
  return { sent: of("sent"), capped: of("capped") };
}

/**
 * Runs `act` and waits until `count` notices of the event it starts were sent or held back by the
 * cap (the tests of a file run one at a time); returns how many were sent and how many held back.
 */
async function settled(event: string, count: number, act: () => Promise<unknown>) {
  const before = await outcomesOf(event);
  await act();
  let after = before;
  await vi.waitFor(
    async () => {
      after = await outcomesOf(event);
      expect(after.sent + after.capped - before.sent - before.capped).toBe(count);
    },
    { timeout: waitMs },
  );
  return { sent: after.sent - before.sent, capped: after.capped - before.capped };
}

describe("NotifyUser", () => {
  it("is the gateway's only, which tells what the session service answered it: every other caller is refused", () => {
    expect(identityAccess.notifyUser).toEqual(["gateway"]);
  });

  it.each(["session", "otp", "recovery", "operator"] as const)("refuses the %s", async (holder) => {
    const company = await companyWith();
    const user = await userOf(company);
    const request = { companyId: company.id, userId: user.id, event: NotificationEvent.LOCKED_OUT };
    expect(await codeOf(clients[holder].notifyUser(request))).toBe("caller.forbidden");
  });

  it.each([
    [NotificationEvent.RECOVERY_STARTED, "recovery_started", "Access recovery of your"],
    [NotificationEvent.RECOVERY_COMPLETED, "recovery_completed", "was recovered"],
    [NotificationEvent.LOCKED_OUT, "locked_out", "is locked"],
  ])("sends one e-mail for the gateway's event %s", async (event, name, subject) => {
    const company = await companyWith();
    const user = await userOf(company);
    await clients.gateway.notifyUser({ companyId: company.id, userId: user.id, event });
    const [notice] = await noticesTo(mail, user.email);
    expect(notice).toMatchObject({ companyId: company.id, notification: name });
    expect((notice as MailMessage).subject).toContain(subject);
    expect(notice?.text).toContain("If this was not you");
    expect((notice as MailMessage).html).toContain(subject);
    expect((notice as MailMessage).html).toContain("If this was not you");
  });

  it("tells of a sign-in from a new device, naming the device and the time, never the user agent", async () => {
    const company = await companyWith();
    const [byMail, bySms] = [await userOf(company), await userOf(company, { email: null })];
    const userAgent =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
    for (const user of [byMail, bySms])
      await clients.gateway.notifyUser({
        companyId: company.id,
        userId: user.id,
        event: NotificationEvent.NEW_DEVICE,
        userAgent,
      });
    const [notice] = (await noticesTo(mail, byMail.email)) as MailMessage[];
    expect(notice?.notification).toBe("new_device");
    expect(notice?.subject).toBe(`New sign-in to your Test ${company.code} account`);
    expect(notice?.text).toMatch(
      /from Chrome on Linux on [A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d\d\s[AP]M UTC, a device or network/,
    );
    expect(notice?.text).toContain("end that session in the list of your sessions");
    expect(notice?.text).toContain("change your password");
    const [text] = (await noticesTo(sms, bySms.phone)) as SmsMessage[];
    expect(text?.text).toContain("new sign-in from Chrome on Linux");
    for (const sent of [notice, text]) expect(JSON.stringify(sent)).not.toContain("AppleWebKit");
  });

  it("refuses the events identity tells of itself", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const request = { companyId: company.id, userId: user.id, event: NotificationEvent.PASSWORD_CHANGED };
    expect(await codeOf(clients.gateway.notifyUser(request))).toBe("request.validation.failed");
  });
});

describe("the notices identity sends itself", () => {
  it("tells of the lock-out its own wrong password made, whose user the session service answers the report", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    lockingOut = user.id;
    try {
      const wrong = {
        companyId: company.id,
        userId: user.id,
        password: "not the password",
        clientAddress: "192.0.2.1",
      };
      expect((await clients.gateway.verifyPassword(wrong)).valid).toBe(false);
    } finally {
      lockingOut = "";
    }
    const [notice] = await noticesTo(mail, user.email);
    expect(notice?.notification).toBe("locked_out");
  });

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
    // With the first backup codes, which came with the app (docs/decisions.md, "Passkeys"), told
    // at once in either order.
    const enrolled = await noticesTo(mail, user.email, 2);
    expect(enrolled.map((notice) => notice.notification).sort()).toEqual([
      "authenticator_app_added",
      "backup_codes_issued",
    ]);
    await clients.operator.removeTotp({ companyId: company.id, userId: user.id });
    const [, , removed] = await noticesTo(mail, user.email, 3);
    expect(removed?.notification).toBe("authenticator_app_removed");
    for (const notice of [...enrolled, removed]) {
      expect(JSON.stringify(notice)).not.toContain(secret);
      expect(JSON.stringify(notice)).not.toContain(code);
    }
  });
});

describe("the channel of a notice", () => {
  it("is the user's e-mail when the user has one, and only that", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    await clients.gateway.notifyUser({
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
    await clients.gateway.notifyUser({
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
    await clients.gateway.notifyUser({
      companyId: company.id,
      userId: user.id,
      event: NotificationEvent.RECOVERY_COMPLETED,
    });
    await vi.waitFor(async () => expect(await skipped("recovery_completed")).toBe(before + 1), {
      timeout: waitMs,
    });
  });
});

describe('the e-mail\'s layout (docs/decisions.md, "Brand")', () => {
  it("is the company's: its name, logo and colour, the wording's paragraphs, and why the user got it", async () => {
    const company = await seedCompany(clients.operator, {
      brand: { logoUrl: "https://acme.example/logo.png", color: "#0b6e4f" },
    });
    const user = await userOf(company);
    await clients.gateway.notifyUser({
      companyId: company.id,
      userId: user.id,
      event: NotificationEvent.LOCKED_OUT,
    });
    const [notice] = (await noticesTo(mail, user.email)) as MailMessage[];
    expect(notice?.html).toContain(`<img src="https://acme.example/logo.png" alt="Test ${company.code}"`);
    expect(notice?.html).toContain("background:#0b6e4f");
    expect(notice?.html).toMatch(/<p class="paragraph"[^>]*>Your Test \w+ account was locked on /);
    expect(notice?.html).toContain(`concerns the security of your Test ${company.code} account`);
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
    await clients.gateway.notifyUser({
      companyId: company.id,
      userId: user.id,
      event: NotificationEvent.LOCKED_OUT,
    });
    const [notice] = (await noticesTo(mail, user.email)) as MailMessage[];
    expect(notice?.subject).toBe(`Test ${company.code}: locked`);
    // {time} is the date and time in the company's language, in UTC (docs/decisions.md, "Languages").
    const lockedAt = /Locked at [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d\s[AP]M UTC\. Call the help desk\./;
    expect(notice?.text).toMatch(new RegExp(`^${lockedAt.source}$`));
    expect(notice?.html).toMatch(new RegExp(`>${lockedAt.source}<`));
    await clients.gateway.notifyUser({
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
      "may use only the placeholders {company}, {time}",
    ],
    [
      "{device} in another event's template than NEW_DEVICE's",
      [{ event: NotificationEvent.LOCKED_OUT, smsText: "Locked out on {device}" }],
      "may use only the placeholders {company}, {time}",
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
        policy: { ...((stored as Company).policy as CompanyPolicy), notificationTemplates: templates },
      })
      .catch((e) => e)) as AuthError;
    expect(error.code).toBe("request.validation.failed");
    expect(error.message).toContain("notificationTemplates");
    expect(error.message).toContain(message);
  });
});

describe("a new device's template (NotificationTemplate, NEW_DEVICE)", () => {
  it("words the notice with {device} filled", async () => {
    const company = await companyWith([
      { event: NotificationEvent.NEW_DEVICE, subject: "{company}: signed in on {device}" },
    ]);
    const user = await userOf(company);
    await clients.gateway.notifyUser({
      companyId: company.id,
      userId: user.id,
      event: NotificationEvent.NEW_DEVICE,
      userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0",
    });
    const [notice] = (await noticesTo(mail, user.email)) as MailMessage[];
    expect(notice?.subject).toBe(`Test ${company.code}: signed in on Firefox on Linux`);
  });
});

describe("the notice's language is the company's default (docs/decisions.md, \"Languages\")", () => {
  const lockOut = (company: { id: string }, user: { id: string }) =>
    clients.gateway.notifyUser({
      companyId: company.id,
      userId: user.id,
      event: NotificationEvent.LOCKED_OUT,
    });

  it.each([
    [
      "en",
      "Your Test {code} account is locked",
      /^Your Test \w+ account was locked on [A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d\d\s[AP]M UTC after too many/,
      "You got this e-mail because it concerns the security of your Test {code} account.",
      /^Test \w+: your account was locked on [A-Z][a-z]{2} \d{1,2}, \d{4} at \d{1,2}:\d\d\s[AP]M UTC after/,
    ],
    [
      "de",
      "Ihr Konto bei Test {code} ist gesperrt",
      /^Ihr Konto bei Test \w+ wurde am \d{1,2}\. \p{L}+ \d{4} um \d\d:\d\d UTC nach zu vielen/u,
      "Sie erhalten diese E-Mail, weil sie die Sicherheit Ihres Kontos bei Test {code} betrifft.",
      /^Test \w+: Ihr Konto wurde am \d{1,2}\. \p{L}+\.? \d{4} um \d\d:\d\d UTC nach fehlgeschlagenen/u,
    ],
    [
      "fr",
      "Votre compte Test {code} est verrouillé",
      /^Votre compte Test \w+ a été verrouillé le \d{1,2}(er)? \p{L}+ \d{4} à \d\d:\d\d UTC après trop de/u,
      "Vous recevez cet e-mail parce qu’il concerne la sécurité de votre compte Test {code}.",
      /^Test \w+ : votre compte a été verrouillé le \d\d\/\d\d\/\d{4} à \d\d:\d\d UTC après/,
    ],
  ])(
    "%s: the e-mail's subject, body, date in UTC and layout, and the SMS",
    async (language, subject, body, footer, smsText) => {
      const company = await seedCompany(clients.operator, { defaultLanguage: language });
      const [byMail, bySms] = [await userOf(company), await userOf(company, { email: null })];
      await lockOut(company, byMail);
      await lockOut(company, bySms);
      const [notice] = (await noticesTo(mail, byMail.email)) as MailMessage[];
      expect(notice?.subject).toBe(subject.replace("{code}", company.code));
      expect(notice?.text).toMatch(body);
      expect(notice?.html).toContain(`<html lang="${language}"`);
      expect(notice?.html).toContain(footer.replace("{code}", company.code));
      const [sent] = await noticesTo(sms, bySms.phone);
      expect(sent?.text).toMatch(smsText);
    },
  );

  it("takes the company's own text in the default language, and leaves the others the catalogue's", async () => {
    const texts = [
      { language: "de", namespace: "notices", key: "locked_out.subject", text: "{company}: gesperrt" },
    ];
    const german = await seedCompany(clients.operator, { defaultLanguage: "de", texts });
    const english = await seedCompany(clients.operator, { defaultLanguage: "en", texts });
    const [inGerman, inEnglish] = [await userOf(german), await userOf(english)];
    await lockOut(german, inGerman);
    await lockOut(english, inEnglish);
    expect(((await noticesTo(mail, inGerman.email))[0] as MailMessage).subject).toBe(
      `Test ${german.code}: gesperrt`,
    );
    expect(((await noticesTo(mail, inEnglish.email))[0] as MailMessage).subject).toBe(
      `Your Test ${english.code} account is locked`,
    );
  });

  it("takes a company's template as the text of its default language, the other events in that language too", async () => {
    const company = await seedCompany(clients.operator, {
      defaultLanguage: "fr",
      notificationTemplates: [{ event: NotificationEvent.LOCKED_OUT, subject: "{company} : verrouillé" }],
    });
    const user = await userOf(company);
    await lockOut(company, user);
    await clients.gateway.notifyUser({
      companyId: company.id,
      userId: user.id,
      event: NotificationEvent.RECOVERY_STARTED,
    });
    const [locked, started] = (await noticesTo(mail, user.email, 2)) as MailMessage[];
    expect(locked?.subject).toBe(`Test ${company.code} : verrouillé`);
    expect(started?.subject).toBe(
      `Une récupération de l’accès à votre compte Test ${company.code} a commencé`,
    );
  });
});

describe('the cap on notices (docs/security.md, "Notifications")', () => {
  const tell = (user: { id: string }, company: { id: string }, event: NotificationEvent) =>
    clients.gateway.notifyUser({ companyId: company.id, userId: user.id, event });

  it("sends one of 20 parallel NotifyUser calls of one event to one user, and holds back the rest", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    const outcome = await settled("locked_out", 20, () =>
      Promise.all(Array.from({ length: 20 }, () => tell(user, company, NotificationEvent.LOCKED_OUT))),
    );
    expect(outcome).toEqual({ sent: 1, capped: 19 });
    expect(await noticesTo(mail, user.email)).toHaveLength(1);
  });

  it("holds back SMS notices as e-mails: 35 recoveries by control question of a user without e-mail send one", async () => {
    const company = await companyWith();
    const user = await userOf(company, { email: null });
    const outcome = await settled("recovery_started", 35, async () => {
      for (let i = 0; i < 35; i += 1) await tell(user, company, NotificationEvent.RECOVERY_STARTED);
    });
    expect(outcome).toEqual({ sent: 1, capped: 34 });
    expect(await noticesTo(sms, user.phone)).toHaveLength(1);
  });

  it("counts each event and each user on their own", async () => {
    const company = await companyWith();
    const [first, second] = [await userOf(company), await userOf(company)];
    await settled("locked_out", 3, async () => {
      await tell(first, company, NotificationEvent.LOCKED_OUT);
      await tell(first, company, NotificationEvent.LOCKED_OUT);
      await tell(second, company, NotificationEvent.LOCKED_OUT);
    });
    await tell(first, company, NotificationEvent.RECOVERY_STARTED);
    const notices = await noticesTo(mail, first.email, 2);
    expect(notices.map((notice) => notice.notification)).toEqual(["locked_out", "recovery_started"]);
    expect(await noticesTo(mail, second.email)).toHaveLength(1);
  });

  it("tells of each of five changes of one kind in a quarter of an hour: the second password change too", async () => {
    const company = await companyWith();
    const user = await userOf(company);
    for (let i = 0; i < 2; i += 1) {
      await clients.gateway.setPassword({
        companyId: company.id,
        userId: user.id,
        newPassword: `a new and long passphrase ${i} ${randomBytes(4).toString("hex")}`,
        validateOnly: false,
        sessionToken: `${company.id}/${user.id}`,
      });
    }
    expect(await noticesTo(mail, user.email, 2)).toHaveLength(2);
    const issued = await settled("backup_codes_issued", 6, async () => {
      for (let i = 0; i < 6; i += 1)
        await clients.operator.generateBackupCodes({ companyId: company.id, userId: user.id });
    });
    expect(issued).toEqual({ sent: 5, capped: 1 });
  });
});

describe("the notice of a recovery's start, with its code or link", () => {
  const recovery = { order: [], disabled: [], disabledByRole: {}, linkBase: "https://app.example/recover" };
  const companyWithPage = () => seedCompany(clients.operator, { recovery });
  const codeDelivery = (user: { id: string }, company: { id: string }, purpose: OtpPurpose) =>
    clients.otp.getSmsDelivery({ companyId: company.id, userId: user.id, purpose });

  it("goes once identity spent the recovery message of a code's delivery to otp; a login code's delivery tells nothing", async () => {
    const company = await companyWithPage();
    const user = await userOf(company);
    const outcome = await settled("recovery_started", 1, async () => {
      for (let i = 0; i < 3; i += 1) await codeDelivery(user, company, OtpPurpose.LOGIN);
      await codeDelivery(user, company, OtpPurpose.RECOVERY);
    });
    expect(outcome).toEqual({ sent: 1, capped: 0 });
    const [notice] = await noticesTo(mail, user.email);
    expect(notice).toMatchObject({ companyId: company.id, notification: "recovery_started" });
  });

  it("goes once identity spent the recovery message of a link's delivery to recovery", async () => {
    const company = await companyWithPage();
    const user = await userOf(company);
    await clients.recovery.getMailDelivery({ companyId: company.id, userId: user.id });
    const [notice] = await noticesTo(mail, user.email);
    expect(notice?.notification).toBe("recovery_started");
  });

  it("35 recoveries by phone: 5 deliveries (the recovery messages of the hour), one notice, and none tried for the 30 refused", async () => {
    const company = await companyWithPage();
    const user = await userOf(company);
    const answers: string[] = [];
    const outcome = await settled("recovery_started", 5, async () => {
      for (let i = 0; i < 35; i += 1)
        answers.push(await codeOf(codeDelivery(user, company, OtpPurpose.RECOVERY)));
    });
    expect(answers).toEqual([...Array(5).fill("ok"), ...Array(30).fill("request.ratelimit.exceeded")]);
    expect(outcome).toEqual({ sent: 1, capped: 4 });
    expect(await noticesTo(mail, user.email)).toHaveLength(1);
  });
});
