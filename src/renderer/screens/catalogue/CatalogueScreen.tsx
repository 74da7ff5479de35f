import type { ResourceRecord } from '../../../shared/contract';
import { ResourceArea } from '../../resources/ResourceArea';
import { CourseEnrolmentsNote, CourseWayIn } from './CourseWayIn';
import { EnrolmentSection, enrollableOf } from './EnrolmentSection';
import { MetadataSection } from './MetadataSection';
import { RatingSection } from './RatingSection';

type Extra = { profileId: string; record: ResourceRecord };

/** A course's details: its rating and metadata (its enrolled people are the kit's related list). */
function CourseExtra({ profileId, record }: Extra) {
  return (
    <>
      <RatingSection profileId={profileId} scope="course" id={String(record.course_id)} />
      <MetadataSection profileId={profileId} scope="course" id={String(record.course_id)} />
    </>
  );
}

function CourseWayInOf({ profileId, record }: Extra) {
  return <CourseWayIn profileId={profileId} courseId={String(record.course_id)} />;
}

/** A program's details: who is enrolled (enrol, unenrol) and its metadata. */
function ProgramExtra({ profileId, record }: Extra) {
  const item = enrollableOf('program', record);
  return (
    <>
      <EnrolmentSection profileId={profileId} item={item} />
      {typeof record.program_key === 'string' && (
        <RatingSection profileId={profileId} scope="program" id={record.program_key} />
      )}
      <MetadataSection profileId={profileId} scope="program" id={item.id} />
    </>
  );
}

function PathwayExtra({ profileId, record }: Extra) {
  return <EnrolmentSection profileId={profileId} item={enrollableOf('pathway', record)} />;
}

/**
 * `#/catalogue/<kind>`: the tenant's courses, pathways and programs, and who is enrolled, as the kit's generic lists,
 * details and forms; a course's and a program's details edit their metadata, a program's and a pathway's enrol and
 * unenrol one person or enrol a CSV file's, as Program enrolments' Enrol from CSV… does. Course enrolments are read
 * only: the tab and a course's details say how people get into a course.
 */
export function CatalogueScreen() {
  return (
    <ResourceArea
      area="catalogue"
      recordExtras={{ courses: CourseExtra, programs: ProgramExtra, pathways: PathwayExtra }}
      listNotes={{ enrollments: CourseEnrolmentsNote }}
      // Under a course's Enrolled: how people get in (no enrol or import: the platform enrols in programs and pathways).
      relatedNotes={{ courses: { enrollments: CourseWayInOf } }}
    />
  );
}
