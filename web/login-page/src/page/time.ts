/** A time of the service's answers (RFC 3339) as the page shows it: in the browser's locale and zone. */
export const shownTime = (timestamp: string): string => new Date(timestamp).toLocaleString();
