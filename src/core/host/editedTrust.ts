// What a server added or changed by an edit of mcp.json says while it waits for the user's trust: no dialog opens while
// the file is being typed (src/vscode/trust/trustNotice.ts tells the user once the file rests).
export const NOT_TRUSTED_EDITED = 'Not trusted yet: added or changed in mcp.json. Start it to review and trust it.';
