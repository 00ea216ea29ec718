import { isIP } from "node:net";
import type { CompanyPolicy, PasskeySettings } from "@auth/proto/identity";
import { z } from "zod";

/**
 * A company's WebAuthn relying party (docs/decisions.md, "Passkeys"): its RP ID is a host name,
 * never an IP address, and its origins are the pages a ceremony may come from, each of that host or
 * under it, over https (http only for localhost, which browsers treat as a secure context).
 */

/** A lower-case DNS name: labels of letters, digits and inner hyphens, at most 253 characters. */
const hostName =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

const isLocalhost = (host: string) => host === "localhost" || host.endsWith(".localhost");

/** Why the origin is not one of the RP ID's, or undefined when it is. */
function originProblem(origin: string, rpId: string): string | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return "must be a URL";
  }
  // The browser's clientDataJSON carries the origin serialized; a path, a trailing slash or a
  // default port written out would never match it.
  if (url.origin !== origin) return "must be an origin (scheme, host and port only, as a browser writes it)";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLocalhost(url.hostname)))
    return "must be https:// (http:// only for localhost)";
  if (url.hostname !== rpId && !url.hostname.endsWith(`.${rpId}`))
    return `must be of the host ${rpId} or under it`;
  return undefined;
}

/** PasskeySettings as an administrator sends them: all empty is off. */
export const passkeySettingsInput = z
  .object({
    rpId: z
      .string()
      .max(253)
      .refine(
        (rpId) => rpId === "" || (hostName.test(rpId) && isIP(rpId) === 0 && !/^[0-9.]+$/.test(rpId)),
        "must be a lower-case host name (no IP address, port or scheme)",
      ),
    origins: z.array(z.string().max(2_000)).max(20),
    allowPasswordless: z.boolean(),
  })
  .superRefine((settings, context) => {
    if (settings.rpId === "") {
      if (settings.origins.length > 0 || settings.allowPasswordless)
        context.addIssue({
          code: "custom",
          path: ["rpId"],
          message: "is required for origins and passwordless",
        });
      return;
    }
    if (settings.origins.length === 0)
      context.addIssue({
        code: "custom",
        path: ["origins"],
        message: "at least one is required with an rp_id",
      });
    settings.origins.forEach((origin, index) => {
      const problem = originProblem(origin, settings.rpId);
      if (problem) context.addIssue({ code: "custom", path: ["origins", index], message: problem });
    });
  });

/** The company's relying party, or undefined when passkeys are off for it (no RP ID). */
export function relyingPartyOf(policy: CompanyPolicy): PasskeySettings | undefined {
  return policy.passkeys?.rpId ? policy.passkeys : undefined;
}
