/**
 * `mentor-admin calls check --mentor MENTOR`: asks the platform for a mentor's call credentials, which checks that
 * calls with it work. The participant token never reaches this process's output (the engine drops it).
 */
import { commandArgs, type Command } from './command';
import { UsageError } from './io';
import { profileIdOf } from './profile-commands';

export const CALLS_HELP = `Calls with a mentor (MENTOR: unique id or name):
  calls check --mentor MENTOR [--session SESSION_ID] [--video]
      asks the platform for the mentor's call credentials: its call server, room and participant (the participant
      token is a secret and is never shown)`;

export const runCallsCommand: Command = async (engine, args, out, _io, globals) => {
  const [sub, ...rest] = args;
  if (sub !== 'check') throw new UsageError(sub ? `Unknown calls command '${sub}'` : 'calls needs a command: check');
  const profileId = await profileIdOf(engine, globals);
  const tenant = profileId ? { profileId } : {};
  const { values, positionals } = commandArgs(rest, {
    mentor: { type: 'string' },
    session: { type: 'string' },
    video: { type: 'boolean' },
  });
  if (positionals.length) throw new UsageError('calls check takes no positional arguments');
  if (!values.mentor) throw new UsageError('calls check needs --mentor MENTOR');
  // The platform's `pathway` is the mentor's unique id: a name is looked up first.
  const mentor = (await engine.invoke('mentors.get', { ...tenant, mentor: values.mentor })).uniqueId;
  const checked = await engine.invoke('calls.credentials', {
    ...tenant,
    mentor,
    ...(values.session && { sessionId: values.session }),
    ...(values.video && { enableVideo: true }),
  });
  out.record(
    checked,
    [
      `Calls with ${values.mentor} work: the platform issued call credentials.`,
      `  Server:      ${checked.wsUrl}`,
      `  Room:        ${checked.roomName}`,
      `  Participant: ${checked.participantName}`,
      `  Session:     ${checked.sessionId}`,
      `  Token:       issued (not shown)${checked.tokenExpiresAt ? `, valid until ${checked.tokenExpiresAt}` : ''}`,
    ].join('\n'),
  );
  return 0;
};
