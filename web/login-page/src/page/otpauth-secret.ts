/**
 * An authenticator app's secret (base32) as the setup shows it for typing by hand: in groups of
 * four characters, easier to read and to compare than one run of 32.
 */
export function secretGroups(secret: string): string[] {
  return secret.match(/.{1,4}/g) ?? [];
}
