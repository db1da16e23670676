/**
 * Reading configuration from environment variables, shared by the service, the bulk jobs and the
 * release loader. A bad value stops the start-up with a message naming the variable; each caller
 * supplies its own error type (`fail`).
 */
export type Env = Readonly<Record<string, string | undefined>>;
export type ConfigFailure = (message: string) => Error;

/** The trimmed value, or null when unset or blank. */
export function envText(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

export function envInteger(
  env: Env,
  name: string,
  range: { fallback: number; min: number; max?: number },
  fail: ConfigFailure,
): number {
  const value = envText(env[name]);
  if (value === null) return range.fallback;
  const n = Number(value);
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  if (!/^\d+$/.test(value) || n < range.min || n > max) {
    throw fail(
      range.max === undefined
        ? `${name} must be an integer of at least ${range.min}`
        : `${name} must be an integer from ${range.min} to ${range.max}`,
    );
  }
  return n;
}

export function envFlag(env: Env, name: string, fallback: boolean, fail: ConfigFailure): boolean {
  const value = envText(env[name])?.toLowerCase();
  if (value === undefined) return fallback;
  if (value === 'true' || value === '1' || value === 'yes') return true;
  if (value === 'false' || value === '0' || value === 'no') return false;
  throw fail(`${name} must be true or false`);
}
