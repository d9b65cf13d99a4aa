// The Skills group of a running server in the "MCP Servers" view (the io.modelcontextprotocol/skills extension), as
// rows: a row per skill (name, description), its files under it; a click opens a file read-only once verified. A file
// that failed verification says why, and so does a `skills/list` entry the SDK refused. Loaded on demand.
import { CommandIds } from '../../core/common/commandIds';
import type { ServerInfo, Skill } from '../../core/host/serverInfo';
import { firstLine, labelText, markdownLine } from '../../core/presentation/serverText';
import { skillFailure, skillFilePath, skillFiles, skillFileTooltip, skillTooltip } from '../../core/features/skills/skillPresentation';
import type { TreeRow } from '../servers/treeNode';

const REFUSED = { id: 'warning', color: 'problemsWarningIcon.foreground' };
const REFUSED_DESCRIPTION = 'refused: failed verification';

/** The Skills group, when the server offers the extension. */
export function skillRows(info: ServerInfo): TreeRow[] {
  const { skills, invalidSkills = [] } = info.features;
  if (!skills) return [];
  // Keyed by position too: a faulty server may list one URI twice, and the view must not break on duplicate ids.
  const children = [
    ...skills.map((skill, i) => skillRow(info, skill, i)),
    ...invalidSkills.map(
      (bad, i): TreeRow => ({
        key: `refused:${i}`,
        label: labelText(bad.uri ?? 'Skill entry without a URI'),
        description: 'refused: invalid entry',
        tooltip: `**Refused:** ${markdownLine(bad.reason)}`,
        icon: REFUSED,
        contextValue: 'mcpSkillRefused',
      }),
    ),
  ];
  return [
    {
      key: 'skills',
      label: `Skills (${skills.length})`,
      description: invalidSkills.length ? `${invalidSkills.length} refused` : undefined,
      contextValue: 'mcpGroup.skills',
      children,
    },
  ];
}

function skillRow(info: ServerInfo, skill: Skill, index: number): TreeRow {
  const failure = skillFailure(info.features, skill);
  return {
    key: `skill:${index}:${skill.uri}`,
    label: labelText(skill.frontmatter.name),
    description: failure ? REFUSED_DESCRIPTION : labelText(firstLine(skill.frontmatter.description)),
    tooltip: skillTooltip(skill, failure),
    icon: failure ? REFUSED : { id: 'book' },
    contextValue: 'mcpSkill',
    command: { title: 'Open Skill File', command: CommandIds.openSkillFile, arguments: [info.id, skill.uri, skill.uri] },
    children: skillFiles(skill).map((uri) => {
      const fileFailure = info.features.skillFailures?.[uri];
      return {
        key: uri,
        label: labelText(skillFilePath(skill, uri)),
        description: fileFailure ? REFUSED_DESCRIPTION : undefined,
        tooltip: skillFileTooltip(skill, uri, fileFailure),
        icon: fileFailure ? REFUSED : { id: uri === skill.uri ? 'book' : 'file' },
        contextValue: 'mcpSkillFile',
        command: { title: 'Open Skill File', command: CommandIds.openSkillFile, arguments: [info.id, skill.uri, uri] },
      };
    }),
  };
}
