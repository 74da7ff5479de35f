/**
 * `mentor-admin enrol PERSON ITEM` and `unenrol PERSON ITEM`: one person (username or email) in or out of one program
 * or pathway (its id, key, slug or name). Enrolling someone already enrolled, or unenrolling someone who is not,
 * changes nothing and says so (exit 0). A cohort from a CSV file is `import enrollments FILE.csv`.
 */
import { commandArgs, type Command } from './command';
import { UsageError } from './io';
import { profileIdOf } from './profile-commands';

export const ENROL_HELP = `One enrolment (PERSON: username or email; ITEM: a program's or pathway's id, key, slug or name):
  enrol PERSON ITEM                      enrols them (the spec's defaults: active, with metadata, expiry checked)
  unenrol PERSON ITEM                    ends their enrolment
      Someone enrolled already (or not enrolled) is said and nothing changes. JSON: {outcome,item,username,message}`;

export const enrolCommand =
  (verb: 'enrol' | 'unenrol'): Command =>
  async (engine, args, out, _io, globals) => {
    const { positionals } = commandArgs(args, {});
    const [person, item, ...extra] = positionals;
    if (!person || !item) throw new UsageError(`${verb} takes a PERSON and an ITEM`);
    if (extra.length) throw new UsageError(`Unexpected argument '${extra[0]}'`);
    const profileId = await profileIdOf(engine, globals);
    const change = await engine.invoke(verb === 'enrol' ? 'catalogue.enrol' : 'catalogue.unenrol', {
      ...(profileId && { profileId }),
      person,
      item,
    });
    out.record(change, `${change.message}.`);
    return 0;
  };
