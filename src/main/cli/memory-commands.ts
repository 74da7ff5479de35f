/**
 * `mentor-admin memory`: what a mentor remembers of a learner (its current memory, history and the learner's
 * progress), and clearing it. The learner is named by username, as the platform's `{user_id}` takes it.
 */
import { MEMORY_COMPONENTS, MEMORY_COMPONENT_LABELS, type UserMemoryEntry } from '../../shared/contract';
import { commandArgs, type Command } from './command';
import { UsageError } from './io';
import { profileIdOf } from './profile-commands';

export const MEMORY_HELP = `A mentor's memory of a learner (MENTOR: unique id, name or slug; LEARNER: username):
  memory show --mentor MENTOR --learner LEARNER
      current memory (knowledge gaps, lessons learned, help requests), its history and the learner's progress
  memory clear --mentor MENTOR --learner LEARNER --yes
      deletes the learner's knowledge gaps, lessons learned and help requests (the platform keeps them per learner:
      every mentor forgets them); a learner with none is told "nothing to clear". --yes is required
  memory profile --learner LEARNER                       the learner's profile memory entries, by tag
  memory profile-set --learner LEARNER --tag TAG --detail TEXT   add an entry, or change the tag's detail
  memory profile-delete --learner LEARNER --tag TAG --yes        delete an entry
  memory edx --learner LEARNER [--course COURSE_ID]      the learner's edX memory records
  memory edx-delete --learner LEARNER --id ID --yes       delete one of them
  memory filters                                         the memory categories and the users who have memories
  memory list --learner LEARNER [--category C] [--mentor MENTOR] [--mode all|guided|regular] [--from DATE] [--to DATE]
      the learner's memories (MENTOR: unique id or name; DATE: ISO, such as 2026-11-26)
  memory get --learner LEARNER --id MEMORY                one memory (unique id or name) and its entries
  memory entry-set --learner LEARNER --entry ENTRY_ID --key KEY [--value TEXT]   change an entry's key and value
  memory delete --learner LEARNER --id MEMORY --yes      delete a memory and its entries
  Memory settings of a mentor: get|update mentor-memory-settings MENTOR [--set FIELD=VALUE]`;

/** No terminal control sequences from remembered text reach the terminal. */
const printable = (text: string) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');

export const runMemoryCommand: Command = async (engine, args, out, _io, globals) => {
  const [sub, ...rest] = args;
  const profileId = await profileIdOf(engine, globals);
  const tenant = profileId ? { profileId } : {};
  const target = (values: { mentor?: string; learner?: string }) => {
    if (!values.mentor) throw new UsageError(`memory ${sub} needs --mentor MENTOR`);
    if (!values.learner) throw new UsageError(`memory ${sub} needs --learner LEARNER`);
    return { mentor: values.mentor, learner: values.learner };
  };

  switch (sub) {
    case 'show': {
      const { values, positionals } = commandArgs(rest, {
        mentor: { type: 'string' },
        learner: { type: 'string' },
      });
      if (positionals.length) throw new UsageError('memory show takes no positional arguments');
      const memory = await engine.invoke('memory.learner', { ...tenant, ...target(values) });
      const lines = [`Memory of ${memory.learner} with mentor ${memory.mentor}`];
      for (const category of MEMORY_COMPONENTS) {
        const items = memory.current[category];
        lines.push(`${MEMORY_COMPONENT_LABELS[category]} (${items.length})`);
        for (const item of items) lines.push(`  - ${item}`);
      }
      const p = memory.progress;
      if (p) {
        lines.push(
          p.item_name
            ? `Progress: ${p.memory_type} ${p.item_name}, unit ${p.current_unit ?? '?'} of ${p.all_units ?? '?'}${p.current_unit_name ? ` (${p.current_unit_name})` : ''}`
            : 'Progress: the mentor follows no item (see mentor-memory-settings)',
        );
      }
      lines.push(`History (${memory.history.length})`);
      for (const entry of memory.history) {
        lines.push(`  ${entry.insertedAt}`);
        for (const item of entry.items) lines.push(`    ${item.kind}: ${item.content}`);
      }
      for (const warning of memory.warnings) lines.push(`warning: ${warning}`);
      out.record(memory, printable(lines.join('\n')));
      return 0;
    }
    case 'clear': {
      const { values, positionals } = commandArgs(rest, {
        mentor: { type: 'string' },
        learner: { type: 'string' },
        yes: { type: 'boolean' },
      });
      if (positionals.length) throw new UsageError('memory clear takes no positional arguments');
      const { mentor, learner } = target(values);
      if (!values.yes) {
        throw new UsageError(
          `memory clear needs --yes: it deletes ${learner}'s knowledge gaps, lessons learned and help requests for every mentor`,
        );
      }
      const result = await engine.invoke('memory.clear', { ...tenant, mentor, learner, confirm: learner });
      out.record(
        result,
        result.nothingToClear
          ? `${learner} has no memory with mentor ${mentor}: nothing to clear`
          : `Cleared ${learner}'s ${result.cleared.map((c) => MEMORY_COMPONENT_LABELS[c].toLowerCase()).join(', ')}`,
      );
      return 0;
    }
    case 'profile':
    case 'profile-set':
    case 'profile-delete': {
      const { values, positionals } = commandArgs(rest, {
        learner: { type: 'string' },
        tag: { type: 'string' },
        detail: { type: 'string' },
        yes: { type: 'boolean' },
      });
      if (positionals.length) throw new UsageError(`memory ${sub} takes no positional arguments`);
      if (!values.learner) throw new UsageError(`memory ${sub} needs --learner LEARNER`);
      const learner = values.learner;
      if (sub === 'profile') {
        const { entries } = await engine.invoke('memory.profile', { ...tenant, learner });
        for (const entry of entries) out.record(entry, printable(`${entry.tag}\t${entry.detail ?? ''}`));
        out.text(`${entries.length} profile memory entr${entries.length === 1 ? 'y' : 'ies'} of ${learner}`);
        return 0;
      }
      if (!values.tag) throw new UsageError(`memory ${sub} needs --tag TAG`);
      if (sub === 'profile-set') {
        if (values.detail === undefined) throw new UsageError('memory profile-set needs --detail TEXT');
        const saved = await engine.invoke('memory.profileSave', {
          ...tenant,
          learner,
          tag: values.tag,
          detail: values.detail,
        });
        out.record(saved, printable(`Saved ${saved.tag} for ${learner}`));
        return 0;
      }
      if (!values.yes)
        throw new UsageError(`memory profile-delete needs --yes: it deletes ${values.tag} of ${learner}`);
      const result = await engine.invoke('memory.profileDelete', { ...tenant, learner, tag: values.tag });
      out.record(
        result,
        printable(
          result.deleted ? `Deleted ${result.tag} of ${learner}` : `${learner} has no ${result.tag}: nothing to delete`,
        ),
      );
      return 0;
    }
    case 'edx':
    case 'edx-delete': {
      const { values, positionals } = commandArgs(rest, {
        learner: { type: 'string' },
        course: { type: 'string' },
        id: { type: 'string' },
        yes: { type: 'boolean' },
      });
      if (positionals.length) throw new UsageError(`memory ${sub} takes no positional arguments`);
      if (!values.learner) throw new UsageError(`memory ${sub} needs --learner LEARNER`);
      const learner = values.learner;
      if (sub === 'edx') {
        const { records } = await engine.invoke('memory.edx', {
          ...tenant,
          learner,
          ...(values.course && { courseId: values.course }),
        });
        for (const r of records) out.record(r, printable(`#${r.id}\t${r.course_id}\t${r.last_modified}`));
        out.text(`${records.length} edX memory record${records.length === 1 ? '' : 's'} of ${learner}`);
        return 0;
      }
      if (!values.id || !/^\d{1,15}$/.test(values.id))
        throw new UsageError('memory edx-delete needs --id ID (a number)');
      if (!values.yes)
        throw new UsageError(`memory edx-delete needs --yes: it deletes edX memory #${values.id} of ${learner}`);
      const result = await engine.invoke('memory.edxDelete', { ...tenant, learner, id: Number(values.id) });
      out.record(
        result,
        result.deleted
          ? `Deleted edX memory #${result.id} of ${learner}`
          : `${learner} has no edX memory #${result.id}: nothing to delete`,
      );
      return 0;
    }
    case 'filters': {
      const { positionals } = commandArgs(rest, {});
      if (positionals.length) throw new UsageError('memory filters takes no positional arguments');
      const options = await engine.invoke('memory.filterOptions', tenant);
      out.record(
        options,
        printable(
          [
            `Categories: ${options.categories.join(', ') || 'none'}`,
            `Users with memories (${options.users.length}):`,
            ...options.users.map((user) => `  ${user.username}${user.email ? `\t${user.email}` : ''}`),
          ].join('\n'),
        ),
      );
      return 0;
    }
    case 'list':
    case 'get':
    case 'entry-set':
    case 'delete':
      return runUserMemoryCommand(engine, sub, rest, out, tenant);
    default:
      throw new UsageError(
        sub
          ? `Unknown memory command '${sub}'`
          : 'memory needs a command: show, clear, profile, profile-set, profile-delete, edx, edx-delete, filters, list, get, entry-set or delete',
      );
  }
};

/** A learner's memories (the spec's UserMemory records): listed by filters, read, an entry changed, deleted. */
async function runUserMemoryCommand(
  engine: Parameters<Command>[0],
  sub: 'list' | 'get' | 'entry-set' | 'delete',
  rest: string[],
  out: Parameters<Command>[2],
  tenant: { profileId?: string },
): Promise<number> {
  const { values, positionals } = commandArgs(rest, {
    learner: { type: 'string' },
    category: { type: 'string' },
    mentor: { type: 'string' },
    mode: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    id: { type: 'string' },
    entry: { type: 'string' },
    key: { type: 'string' },
    value: { type: 'string' },
    yes: { type: 'boolean' },
  });
  if (positionals.length) throw new UsageError(`memory ${sub} takes no positional arguments`);
  if (!values.learner) throw new UsageError(`memory ${sub} needs --learner LEARNER`);
  const learner = values.learner;
  const entryLine = (entry: UserMemoryEntry) =>
    `  ${entry.unique_id ?? '—'}\t${entry.category ?? ''}\t${entry.key}: ${entry.value ?? ''}`;
  if (sub === 'list') {
    // The platform filters by the mentor's unique id: a name is looked up first.
    const mentor = values.mentor
      ? (await engine.invoke('mentors.get', { ...tenant, mentor: values.mentor })).uniqueId
      : undefined;
    const { memories } = await engine.invoke('memory.memories', {
      ...tenant,
      learner,
      ...(values.category && { category: values.category }),
      ...(mentor && { mentor }),
      ...(values.mode && { mode: values.mode }),
      ...(values.from && { startDate: values.from }),
      ...(values.to && { endDate: values.to }),
    });
    for (const memory of memories) {
      out.record(
        memory,
        printable(
          `${memory.unique_id ?? '—'}\t${memory.name ?? ''}\t${memory.category ?? ''}\t${memory.mode}\t${memory.entries.length} entr${memory.entries.length === 1 ? 'y' : 'ies'}\t${memory.updated_at}`,
        ),
      );
    }
    out.text(`${memories.length} memor${memories.length === 1 ? 'y' : 'ies'} of ${learner}`);
    return 0;
  }
  if (sub === 'entry-set') {
    if (!values.entry) throw new UsageError('memory entry-set needs --entry ENTRY_ID');
    if (!values.key) throw new UsageError('memory entry-set needs --key KEY');
    const saved = await engine.invoke('memory.entrySave', {
      ...tenant,
      learner,
      entry: values.entry,
      key: values.key,
      value: values.value ?? null,
    });
    out.record(saved, printable(`Saved ${saved.key} for ${learner}`));
    return 0;
  }
  if (!values.id) throw new UsageError(`memory ${sub} needs --id MEMORY (its unique id or name)`);
  if (sub === 'get') {
    const memory = await engine.invoke('memory.memory', { ...tenant, learner, memory: values.id });
    const lines = [
      `Memory ${memory.name ?? memory.unique_id} of ${learner} (${memory.mode}${memory.category ? `, ${memory.category}` : ''})`,
      `Mentor: ${memory.mentor ?? '—'}  Session: ${memory.session_id ?? '—'}  Updated: ${memory.updated_at}`,
      `Entries (${memory.entries.length})`,
      ...memory.entries.map(entryLine),
    ];
    out.record(memory, printable(lines.join('\n')));
    return 0;
  }
  if (!values.yes) throw new UsageError(`memory delete needs --yes: it deletes memory ${values.id} of ${learner}`);
  const result = await engine.invoke('memory.memoryDelete', {
    ...tenant,
    learner,
    memory: values.id,
    confirm: learner,
  });
  out.record(
    result,
    printable(
      result.deleted
        ? `Deleted memory ${result.memory} of ${learner}`
        : `${learner} has no memory ${result.memory}: nothing to delete`,
    ),
  );
  return 0;
}
