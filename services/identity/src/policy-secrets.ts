import type { CompanyPolicy } from "@auth/proto/identity";
import type { SecretBox } from "./secret-box.js";

/**
 * Marks a sealed value. A value without it was stored before policy secrets were sealed: it is read
 * as it is, and sealed when the policy is next written.
 */
const sealedMark = "sealed:";

/** The policy's secrets: the captcha's siteverify key, the SMS provider's token, and the SMTP URL, which carries its password. */
function mapSecrets(policy: CompanyPolicy, map: (value: string) => string): CompanyPolicy {
  const { captcha, sms, mail } = policy;
  return {
    ...policy,
    captcha: captcha && { ...captcha, secret: map(captcha.secret) },
    sms: sms && { ...sms, token: map(sms.token) },
    mail: mail && { ...mail, smtpUrl: map(mail.smtpUrl) },
  };
}

/** The policy as it is stored: its secrets sealed. */
export function sealPolicySecrets(policy: CompanyPolicy, box: SecretBox): CompanyPolicy {
  return mapSecrets(policy, (value) => (value ? `${sealedMark}${box.seal(value)}` : value));
}

/** The stored policy with its secrets opened, for the callers that use them. */
export function openPolicySecrets(policy: CompanyPolicy, box: SecretBox): CompanyPolicy {
  return mapSecrets(policy, (value) =>
    value?.startsWith(sealedMark) ? box.open(value.slice(sealedMark.length)) : value,
  );
}
