/** The Overview's charts (recharts), each reading the rows its card also shows as a table. */
import { useComputedColorScheme } from '@mantine/core';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatInteger, formatUsd } from './format';

export const PALETTE = [
  '#228be6',
  '#12b886',
  '#fab005',
  '#fa5252',
  '#7950f2',
  '#15aabf',
  '#fd7e14',
  '#82c91e',
  '#e64980',
  '#868e96',
];
const SENTIMENT_COLORS: Record<string, string> = { positive: '#12b886', neutral: '#adb5bd', negative: '#fa5252' };

function useAxisColor() {
  return useComputedColorScheme('light') === 'dark' ? '#909296' : '#868e96';
}

const shortDate = (date: string) => {
  const [, m, d] = date.split('-');
  return `${Number(d)}/${Number(m)}`;
};

export function ActivityChart({
  points,
}: {
  points: { date: string; sessions: number; messages: number; activeUsers: number | null }[];
}) {
  const axis = useAxisColor();
  const hasActive = points.some((p) => p.activeUsers !== null);
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke={axis} strokeOpacity={0.3} />
        <XAxis dataKey="date" tickFormatter={shortDate} stroke={axis} fontSize={11} minTickGap={16} />
        <YAxis yAxisId="left" stroke={axis} fontSize={11} width={48} tickFormatter={(v: number) => formatInteger(v)} />
        <YAxis
          yAxisId="right"
          orientation="right"
          stroke={axis}
          fontSize={11}
          width={52}
          tickFormatter={(v: number) => formatInteger(v)}
        />
        <Tooltip formatter={(v) => formatInteger(Number(v))} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Line
          yAxisId="left"
          type="monotone"
          dataKey="sessions"
          name="Sessions"
          stroke={PALETTE[0]}
          dot={false}
          isAnimationActive={false}
        />
        {hasActive ? (
          <Line
            yAxisId="left"
            type="monotone"
            dataKey="activeUsers"
            name="Active users"
            stroke={PALETTE[1]}
            dot={false}
            isAnimationActive={false}
          />
        ) : null}
        <Line
          yAxisId="right"
          type="monotone"
          dataKey="messages"
          name="Messages (right axis)"
          stroke={PALETTE[4]}
          dot={false}
          isAnimationActive={false}
        />
      </LineChart>
    </ResponsiveContainer>
  );
}

export function HorizontalBars<T extends Record<string, unknown>>({
  rows,
  label,
  value,
  name,
  money = false,
}: {
  rows: T[];
  label: keyof T & string;
  value: keyof T & string;
  name: string;
  money?: boolean;
}) {
  const axis = useAxisColor();
  const format = (v: number) => (money ? formatUsd(v) : formatInteger(v));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" stroke={axis} strokeOpacity={0.3} horizontal={false} />
        <XAxis type="number" stroke={axis} fontSize={11} tickFormatter={format} />
        <YAxis type="category" dataKey={label as string} stroke={axis} fontSize={11} width={150} interval={0} />
        <Tooltip formatter={(v) => format(Number(v))} />
        <Bar dataKey={value as string} name={name} fill={PALETTE[0]} isAnimationActive={false} radius={[0, 3, 3, 0]} />
      </BarChart>
    </ResponsiveContainer>
  );
}

export function Donut<T extends Record<string, unknown>>({
  rows,
  label,
  value,
  money = false,
  colors,
}: {
  rows: T[];
  label: keyof T & string;
  value: keyof T & string;
  money?: boolean;
  colors?: Record<string, string>;
}) {
  const format = (v: number) => (money ? formatUsd(v) : formatInteger(v));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <PieChart>
        <Pie data={rows} dataKey={value} nameKey={label} innerRadius="55%" outerRadius="85%" isAnimationActive={false}>
          {rows.map((row, i) => (
            <Cell key={String(row[label])} fill={colors?.[String(row[label])] ?? PALETTE[i % PALETTE.length]} />
          ))}
        </Pie>
        <Tooltip formatter={(v) => format(Number(v))} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
      </PieChart>
    </ResponsiveContainer>
  );
}

export const sentimentColors = SENTIMENT_COLORS;
