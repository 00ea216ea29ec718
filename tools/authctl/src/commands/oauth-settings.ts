import { AuthError } from "@auth/errors";
import { OAuthProviderSettings } from "@auth/proto/identity";

/** What `oauth set` takes beside its settings file, as commander parses it. */
export interface SlotOptions {
  trustsProviderMfa?: boolean;
  /** Comma-separated; empty for none. */
  mfaAcrValues?: string;
  maxAgeSeconds?: string;
}

function seconds(value: string): number {
  if (!/^\d+$/.test(value))
    throw new AuthError("request.validation.failed", {
      detail: "--max-age-seconds: a whole number of seconds",
    });
  return Number(value);
}

/**
 * A slot's settings: the file's (OAuthProviderSettings as JSON), with the options given on the
 * command line over them; the identity service validates the whole.
 */
export function slotSettings(file: unknown, options: SlotOptions): OAuthProviderSettings {
  const settings = OAuthProviderSettings.fromJSON(file);
  return {
    ...settings,
    trustsProviderMfa: options.trustsProviderMfa ?? settings.trustsProviderMfa,
    mfaAcrValues:
      options.mfaAcrValues === undefined
        ? settings.mfaAcrValues
        : options.mfaAcrValues
            .split(",")
            .map((value) => value.trim())
            .filter(Boolean),
    maxAgeSeconds:
      options.maxAgeSeconds === undefined ? settings.maxAgeSeconds : seconds(options.maxAgeSeconds),
  };
}
