import Negotiator from "negotiator";

/**
 * The languages of an Accept-Language header, most preferred first (q-values, then their order);
 * those refused with q=0 are left out. For servers: the page has navigator.languages instead.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  return new Negotiator({ headers: { "accept-language": header } }).languages().filter((tag) => tag !== "*");
}
