import { Text, type TextProps } from '@mantine/core';
import { splitForMiddleCut } from '../lib/fileName';

/** A file's name on one line, cut in the middle when it does not fit (its end and extension stay); whole in its title. */
export function FileName({ name, ...props }: TextProps & { name: string }) {
  const { head, tail } = splitForMiddleCut(name);
  return (
    // `pre`: a space where the two parts meet is kept (at the end of a line it would be dropped).
    <Text {...props} title={name} display="flex" style={{ whiteSpace: 'pre', minWidth: 0 }}>
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', minWidth: 0 }}>{head}</span>
      <span style={{ flexShrink: 0 }}>{tail}</span>
    </Text>
  );
}
