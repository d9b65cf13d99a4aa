// How a server's skills (the io.modelcontextprotocol/skills extension) read in the Servers view and to a model: a
// skill by its name, its files by their path under the skill, and a file that failed verification with why. Every
// string here comes from the server: it goes through serverText.
import type { ServerFeatures, Skill } from '../../host/serverInfo';
import { escapeMarkdown, heading, inlineCode, markdownLine } from '../../presentation/serverText';

/** The file list of a skill: its entry's, or only its SKILL.md for a `"dynamic"` skill (others are found by reading it). */
export function skillFiles(skill: Skill): string[] {
  if (skill.resources === 'dynamic') return [skill.uri];
  const uris = skill.resources.map((r) => r.uri);
  return uris.includes(skill.uri) ? uris : [skill.uri, ...uris];
}

/** A file's path under its skill (`SKILL.md`, `references/FORMS.md`); the URI itself when it lies elsewhere. */
export function skillFilePath(skill: Skill, uri: string): string {
  const root = skill.uri.slice(0, skill.uri.length - 'SKILL.md'.length);
  return uri.startsWith(root) && uri.length > root.length ? uri.slice(root.length) : uri;
}

/** Why the skill cannot be loaded (its SKILL.md failed verification this session), or undefined. */
export const skillFailure = (features: ServerFeatures, skill: Skill): string | undefined => features.skillFailures?.[skill.uri];

export function skillTooltip(skill: Skill, failure: string | undefined): string {
  const sections = [heading(skill.frontmatter.name, skill.uri)];
  if (skill.frontmatter.description.trim()) sections.push(escapeMarkdown(skill.frontmatter.description.trim()));
  const files = skillFiles(skill);
  sections.push(skill.resources === 'dynamic' ? '**Files:** listed by the skill itself (not verified)' : `**Files:** ${files.length}, each verified (size and SHA-256 digest) when read`);
  if (failure) sections.push(`**Refused:** ${markdownLine(failure)}`);
  return sections.join('\n\n');
}

export function skillFileTooltip(skill: Skill, uri: string, failure: string | undefined): string {
  const entry = skill.resources === 'dynamic' ? undefined : skill.resources.find((r) => r.uri === uri);
  const sections = [`${inlineCode(skillFilePath(skill, uri))} of skill ${inlineCode(skill.frontmatter.name)}`];
  if (entry) sections.push(`${entry.size} bytes · ${inlineCode(entry.digest)}`);
  if (failure) sections.push(`**Refused:** ${markdownLine(failure)}`);
  else sections.push('Opens read-only, once its size and digest match the entry.');
  return sections.join('\n\n');
}
