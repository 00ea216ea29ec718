import { messageSchema } from "@auth/grpc-kit";
import { languages, sourceLanguage } from "@auth/i18n";
import { regionOf } from "@auth/login-ids";
import {
  CaptchaProvider,
  type Company,
  type CompanyPolicy,
  LoginIdKind,
  RecoveryMethod,
} from "@auth/proto/identity";
import { SmsProvider } from "@auth/proto/otp";
import type { SecretBox } from "@auth/runtime";
import { companyCodeShape, minPasswordLengthFloor } from "@auth/runtime";
import { z } from "zod";
import { brandInput } from "./brand.js";
import { companyTextsInput } from "./company-texts.js";
import { notificationTemplatesInput } from "./notifications/templates.js";
import { passkeySettingsInput } from "./passkeys/relying-party.js";
import { openPolicySecrets, withoutPolicySecrets } from "./policy-secrets.js";
import type { CompanyRow } from "./schema.js";

/** The defaults for what a company does not set (docs/api-contract.md, "Company policy defaults"). */
const policyDefaults = {
  defaultPhoneRegion: "US",
  captchaAfterFailures: 3,
  lockoutAfterFailures: 10,
  failureWindowSeconds: 15 * 60,
  recoveryMessagesPerHour: 5,
  // docs/security.md, "Session lifetimes": within NIST SP 800-63B-4's limits for AAL2.
  sessionAbsoluteSeconds: 12 * 3600,
  sessionIdleSeconds: 30 * 60,
  // docs/decisions.md, "Known devices".
  newDeviceNoticeDays: 90,
} as const;

/** A policy's least password length: 0 (the default) or from the floor to 64 (docs/security.md, "Passwords"). */
const minPasswordLength = (floor: number) =>
  z
    .number()
    .int()
    .refine(
      (length) => length === 0 || (length >= floor && length <= 64),
      `must be 0 (the default) or ${floor} to 64`,
    )
    .default(0);

const compiles = (pattern: string) => {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
};

const loginIdKind = z
  .enum(LoginIdKind)
  .refine((kind) => kind !== LoginIdKind.UNSPECIFIED && kind !== LoginIdKind.UNRECOGNIZED, {
    message: "must be PHONE, EMAIL or LOGIN_NAME",
  });

const recoveryMethod = z.enum(
  [RecoveryMethod.PHONE, RecoveryMethod.MAIL, RecoveryMethod.QUESTION],
  "must be PHONE, MAIL or QUESTION",
);

/** docs/decisions.md, "SMS pumping": zero is the default. */
const smsLimitsInput = z.object({
  allowedRegions: z
    .array(z.string().refine((code) => regionOf(code) !== undefined, "must be an ISO 3166-1 alpha-2 region"))
    .max(250),
  perRegionPerHour: z.number().int().min(0).max(10_000_000),
  perCompanyPerHour: z.number().int().min(0).max(10_000_000),
  breakerMinSent: z.number().int().min(0).max(1_000_000),
  breakerMinEnteredPercent: z.number().int().min(0).max(100),
});

const smsTemplate = z.string().max(320).includes("{code}", { message: "must contain {code}" });

/** AWS region names: eu-west-1, us-gov-west-1, ap-southeast-2. */
const awsRegionShape = /^[a-z]{2}(-[a-z]+)+-\d+$/;

/**
 * The fields each SMS provider needs (proto SmsProvider, docs/decisions.md "SMS providers"), each
 * refusal naming its field. The token is checked once the stored one is kept (keepStoredSecrets).
 */
function checkSmsProviderFields(
  sms: { provider: SmsProvider; url: string; account: string; sender: string; region: string },
  context: z.RefinementCtx,
): void {
  const refuse = (field: string, message: string) =>
    context.addIssue({ code: "custom", path: [field], message });
  const { provider, url, account, sender, region } = sms;
  // The SDK providers: their own API unless the company names a (regional) one, over TLS.
  const sdkUrl = () => {
    if (url !== "" && !/^https:\/\//.test(url))
      refuse("url", "must be empty (the provider's own) or an https URL");
  };
  switch (provider) {
    case SmsProvider.UNSPECIFIED:
    case SmsProvider.UNRECOGNIZED:
      return;
    case SmsProvider.HTTP:
      if (!/^https?:\/\//.test(url)) refuse("url", "an HTTP SMS provider needs an http(s) URL");
      return;
    case SmsProvider.TWILIO:
      sdkUrl();
      if (!/^AC[0-9a-f]{32}$/i.test(account))
        refuse("account", "Twilio needs its Account SID: AC and 32 hex digits");
      if (!sender) refuse("sender", "Twilio needs a sender: a phone number or a Messaging Service SID");
      return;
    case SmsProvider.VONAGE:
      sdkUrl();
      if (!account) refuse("account", "Vonage needs its API key");
      if (!sender) refuse("sender", "Vonage needs a sender: a phone number or a sender ID");
      return;
    case SmsProvider.AWS_SNS:
      sdkUrl();
      if (!account) refuse("account", "Amazon SNS needs its access key ID");
      if (!awsRegionShape.test(region))
        refuse("region", "Amazon SNS needs its AWS region, such as eu-west-1");
      return;
    default:
      provider satisfies never;
  }
}

export const companyCode = z
  .string()
  .regex(companyCodeShape, "must be 1 to 63 lower-case letters, digits, - or _ (a URL path segment)");

/** A policy as an administrator sends it: zero and empty mean "the default". */
export const policyInput = messageSchema<CompanyPolicy>()(
  z.object({
    passwordRegex: z.string().max(1_000).refine(compiles, "must be a valid regular expression").optional(),
    passwordRegexDescription: z.string().max(1_000).optional(),
    twoFactorRoles: z.array(z.string().min(1).max(100)).max(100).default([]),
    defaultPhoneRegion: z
      .string()
      .refine((code) => code === "" || regionOf(code) !== undefined, "must be an ISO 3166-1 alpha-2 region")
      .default(""),
    loginIdKindsByRole: z
      .record(z.string().min(1), z.object({ kinds: z.array(loginIdKind).min(1) }))
      .default({}),
    captchaAfterFailures: z.number().int().min(0).max(1_000).default(0),
    lockoutAfterFailures: z.number().int().min(0).max(10_000).default(0),
    failureWindowSeconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3600)
      .default(0),
    rateLimitPerAddressPerMinute: z.number().int().min(0).max(1_000_000).default(0),
    rateLimitPerLoginIdPerMinute: z.number().int().min(0).max(1_000_000).default(0),
    recoveryMessagesPerHour: z.number().int().min(0).max(1_000).default(0),
    minPasswordLength: minPasswordLength(minPasswordLengthFloor.withoutSecondFactor),
    minPasswordLengthWithSecondFactor: minPasswordLength(minPasswordLengthFloor.withSecondFactor),
    preauthSessionSeconds: z
      .number()
      .int()
      .min(0)
      .max(24 * 3600)
      .default(0),
    authorizedSessionSeconds: z
      .number()
      .int()
      .min(0)
      .max(30 * 24 * 3600)
      .default(0),
    // At least a minute (a use is recorded once a minute); at most the session service's 30 days.
    sessionAbsoluteSeconds: z
      .number()
      .int()
      .refine((seconds) => seconds === 0 || seconds >= 60, "must be 0 (the default) or at least 60")
      .max(30 * 24 * 3600)
      .default(0),
    sessionIdleSeconds: z
      .number()
      .int()
      .refine((seconds) => seconds === 0 || seconds >= 60, "must be 0 (the default) or at least 60")
      .max(30 * 24 * 3600)
      .default(0),
    captcha: z
      .object({
        provider: z
          .enum(CaptchaProvider)
          .refine((p) => p !== CaptchaProvider.UNRECOGNIZED, "must be a captcha provider"),
        secret: z.string().max(500),
        verifyUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
        minScore: z.number().min(0).max(1).optional(),
      })
      .optional(),
    recovery: z
      .object({
        order: z
          .array(recoveryMethod)
          .max(3)
          .refine((order) => new Set(order).size === order.length, "must not repeat a method"),
        disabled: z.array(recoveryMethod).max(3),
        disabledByRole: z.record(z.string().min(1), z.object({ methods: z.array(recoveryMethod).max(3) })),
        linkBase: z.union([
          z.literal(""),
          z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2_000),
        ]),
      })
      .optional(),
    mail: z
      .object({
        smtpUrl: z.union([
          z.literal(""),
          z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }),
        ]),
        from: z.string().max(320),
        subjectTemplate: z.string().min(1).max(200).optional(),
        bodyTemplate: z.string().max(5_000).includes("{link}", { message: "must contain {link}" }).optional(),
      })
      .refine((mail) => mail.smtpUrl === "" || mail.from !== "", {
        message: "an SMTP server needs a From address",
        path: ["from"],
      })
      .optional(),
    sms: z
      .object({
        provider: z
          .enum(SmsProvider)
          .refine((p) => p !== SmsProvider.UNRECOGNIZED, "must be an SMS provider"),
        url: z.string().max(2_000),
        token: z.string().max(2_000),
        loginTemplate: smsTemplate.optional(),
        recoveryTemplate: smsTemplate.optional(),
        account: z.string().max(200).default(""),
        sender: z.string().max(50).default(""),
        region: z.string().max(30).default(""),
        limits: smsLimitsInput.optional(),
      })
      .superRefine(checkSmsProviderFields)
      .optional(),
    notificationTemplates: notificationTemplatesInput,
    passkeys: passkeySettingsInput.optional(),
    brand: brandInput.optional(),
    defaultLanguage: z
      .union([z.literal(""), z.enum(languages, `must be one of ${languages.join(", ")}`)])
      .default(""),
    texts: companyTextsInput,
    newDeviceNoticeDays: z.number().int().min(0).max(400).default(0),
    maxSessionsPerUser: z.number().int().min(0).max(1_000).default(0),
  }),
);

/**
 * The policy with the defaults in place of what it leaves unset. Identity settles them, once, and
 * answers no other policy: the other services use the values it answers. A policy stored before a
 * field existed gets the field's default when it is read.
 */
export function withPolicyDefaults(policy: CompanyPolicy): CompanyPolicy {
  return {
    ...policy,
    defaultPhoneRegion: (regionOf(policy.defaultPhoneRegion) ?? policyDefaults.defaultPhoneRegion).toString(),
    captchaAfterFailures: policy.captchaAfterFailures || policyDefaults.captchaAfterFailures,
    lockoutAfterFailures: policy.lockoutAfterFailures || policyDefaults.lockoutAfterFailures,
    failureWindowSeconds: policy.failureWindowSeconds || policyDefaults.failureWindowSeconds,
    recoveryMessagesPerHour: policy.recoveryMessagesPerHour || policyDefaults.recoveryMessagesPerHour,
    // Never below the floor, whatever was stored.
    minPasswordLength: Math.max(policy.minPasswordLength ?? 0, minPasswordLengthFloor.withoutSecondFactor),
    minPasswordLengthWithSecondFactor: Math.max(
      policy.minPasswordLengthWithSecondFactor ?? 0,
      minPasswordLengthFloor.withSecondFactor,
    ),
    sessionAbsoluteSeconds: policy.sessionAbsoluteSeconds || policyDefaults.sessionAbsoluteSeconds,
    sessionIdleSeconds: policy.sessionIdleSeconds || policyDefaults.sessionIdleSeconds,
    newDeviceNoticeDays: policy.newDeviceNoticeDays || policyDefaults.newDeviceNoticeDays,
    maxSessionsPerUser: policy.maxSessionsPerUser ?? 0,
    notificationTemplates: policy.notificationTemplates ?? [],
    defaultLanguage: policy.defaultLanguage || sourceLanguage,
    texts: policy.texts ?? [],
  };
}

/** A stored company, its policy complete (withPolicyDefaults). */
export function withDefaults(row: CompanyRow): CompanyRow {
  return { ...row, policy: withPolicyDefaults(row.policy) };
}

/** The company as every answer shows it: its policy complete, without its secrets. */
export function toCompany(row: CompanyRow, box: SecretBox): Company {
  const policy = withoutPolicySecrets(openPolicySecrets(withPolicyDefaults(row.policy), box));
  return { id: row.id, code: row.code, name: row.name, suspended: row.suspended, policy };
}
