import { AuthError } from "@auth/errors";
import { CaptchaProvider, type CompanyPolicy } from "@auth/proto/identity";
import { SmsProvider, type SmsSettings } from "@auth/proto/otp";
import type { SecretBox } from "@auth/runtime";

/**
 * The secrets of a company's policy: the captcha's siteverify key, the SMS provider's token and the
 * SMTP URL's password. They are sealed at rest, write-only in every answer, and opened only for the
 * service that uses them: captchas are checked here, the SMS token goes to the otp service (and to
 * identity's own notices) and the SMTP URL to the recovery service (docs/security.md, "Trust between
 * the services").
 *
 * A sealed value carries this mark. A value without it was stored before policy secrets were
 * sealed: it is read as it is, and sealed when the policy is next written.
 */
const sealedMark = "sealed:";

type SecretName = "captcha" | "sms" | "mail";

function secretsOf({ captcha, sms, mail }: CompanyPolicy): Record<SecretName, string | undefined> {
  return { captcha: captcha?.secret, sms: sms?.token, mail: mail?.smtpUrl };
}

function mapSecrets(policy: CompanyPolicy, map: (value: string, name: SecretName) => string): CompanyPolicy {
  const { captcha, sms, mail } = policy;
  return {
    ...policy,
    captcha: captcha && { ...captcha, secret: map(captcha.secret, "captcha") },
    sms: sms && { ...sms, token: map(sms.token, "sms") },
    mail: mail && { ...mail, smtpUrl: map(mail.smtpUrl, "mail") },
  };
}

/**
 * The policy as it is stored: its secrets sealed. A secret the `stored` policy holds already keeps
 * its sealing, so that a write changes only what it changes.
 */
export function sealPolicySecrets(
  policy: CompanyPolicy,
  box: SecretBox,
  stored?: CompanyPolicy,
): CompanyPolicy {
  const kept = stored && secretsOf(stored);
  return mapSecrets(policy, (value, name) => {
    if (!value) return value;
    const sealed = kept?.[name];
    const keptSealing = sealed?.startsWith(sealedMark) ? sealed.slice(sealedMark.length) : undefined;
    return `${sealedMark}${box.sealAgain(value, keptSealing)}`;
  });
}

/** The stored policy with its secrets opened, for the one use of each. */
export function openPolicySecrets(policy: CompanyPolicy, box: SecretBox): CompanyPolicy {
  return mapSecrets(policy, (value) =>
    value?.startsWith(sealedMark) ? box.open(value.slice(sealedMark.length)) : value,
  );
}

/** Where an SMTP URL sends the mail: the URL without its password, which is no secret. */
function smtpServerOf(smtpUrl: string): string {
  if (!smtpUrl) return smtpUrl;
  const url = new URL(smtpUrl);
  url.password = "";
  return url.toString();
}

/** The providers reached through their SDKs, each of which needs its token. */
const sdkSmsProviders = [SmsProvider.TWILIO, SmsProvider.VONAGE, SmsProvider.AWS_SNS];

/**
 * Whether an SMS token belongs to both settings: the same provider, endpoint and account. An SDK
 * provider's URL is most often empty, so the URL alone would hand one provider's token to another.
 */
const sameSmsAccount = (a: SmsSettings, b: SmsSettings) =>
  a.provider === b.provider && a.url === b.url && a.account === b.account;

const hasPassword = (smtpUrl: string) => smtpUrl !== "" && new URL(smtpUrl).password !== "";

/** The opened policy as every answer shows it: no secret in it. */
export function withoutPolicySecrets(policy: CompanyPolicy): CompanyPolicy {
  const { captcha, sms, mail } = policy;
  return {
    ...policy,
    captcha: captcha && { ...captcha, secret: "" },
    sms: sms && { ...sms, token: "" },
    mail: mail && { ...mail, smtpUrl: smtpServerOf(mail.smtpUrl) },
  };
}

/**
 * A new policy whose secrets, where left empty as answers show them, are the stored ones: an
 * operator can read a policy, change it and write it back without knowing its secrets. A captcha
 * secret is kept for the same provider, an SMS token for the same provider, URL and account, an SMTP
 * password for the same URL otherwise. A captcha provider, or an SMS provider reached through its
 * SDK, that needs a secret and ends up without one is refused.
 */
export function keepStoredSecrets(
  next: CompanyPolicy,
  stored: CompanyPolicy | undefined,
  box: SecretBox,
): CompanyPolicy {
  const opened = stored && openPolicySecrets(stored, box);
  const captcha =
    next.captcha && !next.captcha.secret && opened?.captcha?.provider === next.captcha.provider
      ? { ...next.captcha, secret: opened.captcha.secret }
      : next.captcha;
  const sms =
    next.sms && !next.sms.token && opened?.sms && sameSmsAccount(opened.sms, next.sms)
      ? { ...next.sms, token: opened.sms.token }
      : next.sms;
  const mail =
    next.mail &&
    !hasPassword(next.mail.smtpUrl) &&
    opened?.mail &&
    smtpServerOf(opened.mail.smtpUrl) === smtpServerOf(next.mail.smtpUrl)
      ? { ...next.mail, smtpUrl: opened.mail.smtpUrl }
      : next.mail;
  const needsSecret =
    captcha && ![CaptchaProvider.UNSPECIFIED, CaptchaProvider.DEV].includes(captcha.provider);
  if (needsSecret && !captcha.secret) {
    throw new AuthError("request.validation.failed", {
      detail: "policy.captcha.secret: a captcha provider needs its secret",
    });
  }
  if (sms && sdkSmsProviders.includes(sms.provider) && !sms.token) {
    throw new AuthError("request.validation.failed", {
      detail:
        "policy.sms.token: an SMS provider needs its secret (Twilio's Auth Token, Vonage's API secret, the AWS secret access key)",
    });
  }
  return { ...next, captcha, sms, mail };
}
