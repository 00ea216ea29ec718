/** Where a URL points, for the log lines: never its credentials. */
export const describeNats = (url: string) => `nats ${new URL(url).host}`;
