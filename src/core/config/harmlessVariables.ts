// The allow-list of environment variable names known to change nothing about which code runs (locale, time zone,
// colours, terminal size, log verbosity of well-behaved tools). Every other name is shown on a line of its own with its
// value: a deny-list of "dangerous" names always misses the next interpreter's hook (PYTHONWARNINGS, BROWSER,
// BASH_FUNC_x%%, UV_DEFAULT_INDEX, …). Shared by the launch plan and the preview of a definition not yet resolved.
const HARMLESS = /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|COLORTERM|TERM|COLUMNS|LINES|DEBUG|LOG_LEVEL|LOGLEVEL|RUST_LOG|RUST_BACKTRACE|NODE_ENV|PYTHONUNBUFFERED|PYTHONIOENCODING|PYTHONDONTWRITEBYTECODE|MCP_LOG_LEVEL)$/;

export const isHarmlessVariable = (name: string): boolean => HARMLESS.test(name);
