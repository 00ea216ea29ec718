/**
 * The e-mail address as recovery shows it to someone who only typed a login ID: the first
 * character of the local part and the domain stay, the rest of the local part becomes `*`.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return email.replace(/./g, "*");
  const local = email.slice(0, at);
  return `${local[0]}${"*".repeat(Math.max(local.length - 1, 1))}${email.slice(at)}`;
}
