/**
 * How people get into a course on this platform, said where an administrator looks for "enrol": the spec has no call
 * that enrols someone in a course (only programs and pathways are enrolled in, and a course is invited to), so a
 * course offers no enrol or import; it names the programs and pathways that contain it, and the invitations (the
 * spec's course invitations, sent from Invitations).
 */
import { Anchor, Loader, Text } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';
import { useCall } from '../../queries/useCall';

const programHref = (id: string) => `#/catalogue/programs/${encodeURIComponent(id)}`;
const pathwayHref = (id: string) => `#/catalogue/pathways/${encodeURIComponent(id)}`;

/** "a, b and c" of some links. */
function listed(parts: ReactNode[]): ReactNode {
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index === 0 ? '' : index === parts.length - 1 ? ' and ' : ', '}
      {part}
    </Fragment>
  ));
}

/** The Enrolments tab's note: no course in particular, so the lists to enrol from and the invitations. */
export function CourseEnrolmentsNote() {
  return (
    <span data-testid="course-way-in">
      Courses can’t be enrolled in directly: people get into a course through a{' '}
      <Anchor href="#/catalogue/programs" inherit>
        program
      </Anchor>{' '}
      or{' '}
      <Anchor href="#/catalogue/pathways" inherit>
        pathway
      </Anchor>{' '}
      that contains it (enrol them there, one person or a CSV file), or by an{' '}
      <Anchor href="#/invitations" inherit>
        invitation to the course
      </Anchor>
      .
    </span>
  );
}

/** In a course's details: the programs and pathways that contain it, each a link, and the invitations. */
export function CourseWayIn({ profileId, courseId }: { profileId: string; courseId: string }) {
  const holders = useCall('catalogue.courseHolders', { profileId, courseId });
  const found = holders.data
    ? [
        ...holders.data.programs.map((p) => (
          <Fragment key={`program:${p.id}`}>
            the program{' '}
            <Anchor href={programHref(p.id)} inherit>
              {p.name}
            </Anchor>
          </Fragment>
        )),
        ...holders.data.pathways.map((p) => (
          <Fragment key={`pathway:${p.id}`}>
            the pathway{' '}
            <Anchor href={pathwayHref(p.id)} inherit>
              {p.name}
            </Anchor>
          </Fragment>
        )),
      ]
    : [];
  const invite = (
    <Anchor href="#/invitations" inherit>
      invite people to it
    </Anchor>
  );
  const lists = (
    <>
      <Anchor href="#/catalogue/programs" inherit>
        programs
      </Anchor>{' '}
      or{' '}
      <Anchor href="#/catalogue/pathways" inherit>
        pathways
      </Anchor>
    </>
  );
  if (holders.isPending) return <Loader size="xs" />;
  return (
    <Text size="sm" data-testid="course-way-in">
      {found.length ? (
        <>
          Courses can’t be enrolled in directly: enrol people in {listed(found)}, which contain this course, or {invite}
          .
        </>
      ) : holders.isSuccess ? (
        // None contains it, yet people may be enrolled (invited, or in a program that no longer holds it): said so,
        // so the count beside it does not read as a contradiction.
        <>
          No program or pathway of this tenant contains this course now; people come into it by{' '}
          <Anchor href="#/invitations" inherit>
            invitation
          </Anchor>{' '}
          or were enrolled earlier. To enrol people, add it to one of the {lists}.
        </>
      ) : (
        <>
          Courses can’t be enrolled in directly: people get in through a program or pathway that contains it (see the{' '}
          {lists}), or {invite}.
        </>
      )}
    </Text>
  );
}
