// The host context's style variables (MCP Apps theming) from VS Code's current theme: each standard variable a view
// may use, and the VS Code theme variable it takes its value from. The webview resolves them (only it sees the theme's
// colours) and the extension checks what it receives before a view gets it.

export const THEME_VARIABLES = {
  '--color-background-primary': '--vscode-editor-background',
  '--color-background-secondary': '--vscode-sideBar-background',
  '--color-background-tertiary': '--vscode-editorWidget-background',
  '--color-background-inverse': '--vscode-editor-foreground',
  '--color-background-info': '--vscode-inputValidation-infoBackground',
  '--color-background-danger': '--vscode-inputValidation-errorBackground',
  '--color-background-warning': '--vscode-inputValidation-warningBackground',
  '--color-background-disabled': '--vscode-input-background',
  '--color-text-primary': '--vscode-editor-foreground',
  '--color-text-secondary': '--vscode-descriptionForeground',
  '--color-text-tertiary': '--vscode-disabledForeground',
  '--color-text-inverse': '--vscode-editor-background',
  '--color-text-info': '--vscode-editorInfo-foreground',
  '--color-text-danger': '--vscode-errorForeground',
  '--color-text-success': '--vscode-testing-iconPassed',
  '--color-text-warning': '--vscode-editorWarning-foreground',
  '--color-text-disabled': '--vscode-disabledForeground',
  '--color-border-primary': '--vscode-panel-border',
  '--color-border-secondary': '--vscode-editorWidget-border',
  '--color-border-info': '--vscode-inputValidation-infoBorder',
  '--color-border-danger': '--vscode-inputValidation-errorBorder',
  '--color-border-warning': '--vscode-inputValidation-warningBorder',
  '--color-ring-primary': '--vscode-focusBorder',
  '--font-sans': '--vscode-font-family',
  '--font-mono': '--vscode-editor-font-family',
  '--font-weight-normal': '--vscode-font-weight',
  '--font-text-md-size': '--vscode-font-size',
} as const;

export type AppStyleVariable = keyof typeof THEME_VARIABLES;
export type AppTheme = 'light' | 'dark';

const MAX_VALUE_LENGTH = 300;

/** Reads each variable's value from the theme (`lookup` gives a VS Code variable's value, '' when unset). */
export function themeStyles(lookup: (vscodeVariable: string) => string): Partial<Record<AppStyleVariable, string>> {
  const styles: Partial<Record<AppStyleVariable, string>> = {};
  for (const [key, source] of Object.entries(THEME_VARIABLES) as [AppStyleVariable, string][]) {
    const value = lookup(source).trim();
    if (value) styles[key] = value;
  }
  return styles;
}

/**
 * What the webview reported, kept only as far as it is what `themeStyles` produces: known variables with short values
 * that cannot end a declaration or open a url(), so nothing but a colour, size or font list reaches a view.
 */
export function checkedStyles(reported: unknown): Partial<Record<AppStyleVariable, string>> {
  const styles: Partial<Record<AppStyleVariable, string>> = {};
  if (typeof reported !== 'object' || reported === null) return styles;
  for (const [key, value] of Object.entries(reported)) {
    if (!(key in THEME_VARIABLES) || typeof value !== 'string') continue;
    if (value.length > MAX_VALUE_LENGTH || /[;{}<>\\]|url\(/i.test(value)) continue;
    styles[key as AppStyleVariable] = value;
  }
  return styles;
}

/** VS Code marks the theme kind on the webview's body; high-contrast themes count as what they are darkest or lightest. */
export function themeKind(bodyClasses: readonly string[]): AppTheme {
  return bodyClasses.includes('vscode-light') || bodyClasses.includes('vscode-high-contrast-light') ? 'light' : 'dark';
}
