/**
 * The Overview's charts (recharts), each reading the rows its card also shows as a table. Axes use fixed tick
 * intervals and the legends are plain markup: recharts would otherwise measure every label in the DOM, forcing a
 * layout of the whole page per label on first render.
 */
import { Stack, useComputedColorScheme } from '@mantine/core';
import { useState } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Line,
  LineChart,
  Pie,
  PieChart,
  Tooltip,
  XAxis,
  YAxis,
  type CartesianGridProps,
} from 'recharts';
import { formatDay, formatDayShort, formatInteger, formatUsd } from './format';
import classes from './Overview.module.css';

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

interface TickProps {
  x?: number | string;
  y?: number | string;
  payload?: { value: unknown };
  textAnchor?: 'start' | 'middle' | 'end' | 'inherit';
  fill?: string;
  verticalAnchor?: string;
}

/**
 * An axis label drawn as plain SVG text. Recharts' own labels measure their words in the DOM (to wrap them), which
 * forces a layout of the page per label on first render.
 */
function plainTick(format: (value: unknown) => string, maxLength = 24) {
  function PlainTick({ x, y, payload, textAnchor, fill, verticalAnchor }: TickProps) {
    const text = format(payload?.value);
    const dy = verticalAnchor === 'start' ? '0.71em' : verticalAnchor === 'end' ? '0' : '0.32em';
    return (
      <text x={Number(x)} y={Number(y)} dy={dy} textAnchor={textAnchor ?? 'middle'} fill={fill} fontSize={11}>
        {text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text}
      </text>
    );
  }
  return PlainTick;
}

const dateTick = plainTick((v) => formatDayShort(String(v)));
const integerTick = plainTick((v) => formatInteger(Number(v)));
const usdTick = plainTick((v) => formatUsd(Number(v)));
const labelTick = plainTick((v) => String(v));

/** About `target` labels along an axis of `count` ticks. */
const every = (count: number, target: number) => Math.max(0, Math.ceil(count / target) - 1);

type VerticalCoordinatesGenerator = NonNullable<CartesianGridProps['verticalCoordinatesGenerator']>;
type HorizontalCoordinatesGenerator = NonNullable<CartesianGridProps['horizontalCoordinatesGenerator']>;
type GridAxis = Parameters<VerticalCoordinatesGenerator>[0]['xAxis'];

/**
 * Grid lines at an axis's ticks (every `interval + 1`-th, as the axis draws its labels) and at both edges. Recharts'
 * own generator measures every label in the DOM when an axis's `interval` is not a number, which is the case for the
 * stand-in axis it uses in the pass before the chart's axes register: one forced layout of the page per label, for
 * lines that pass never shows. Our axes always have a numeric interval; before they register there are no lines.
 */
export function gridLines(axis: GridAxis, from: number, to: number): number[] {
  const scale = axis?.scale;
  if (!axis || !scale || typeof axis.interval !== 'number') return [];
  const step = axis.interval + 1;
  const explicit = axis.ticks ?? axis.niceTicks;
  const values: readonly unknown[] = explicit ?? (axis.isCategorical ? axis.categoricalDomain : null) ?? scale.domain();
  const lines: number[] = [];
  values.forEach((value, i) => {
    if (i % step) return;
    const at = scale.map(explicit && axis.duplicateDomain ? axis.duplicateDomain.indexOf(value) : value);
    if (typeof at === 'number' && Number.isFinite(at) && at !== from && at !== to) lines.push(at);
  });
  return [from, ...lines, to];
}

const verticalGrid: VerticalCoordinatesGenerator = ({ xAxis, offset }) =>
  gridLines(xAxis, offset.left ?? 0, (offset.left ?? 0) + (offset.width ?? 0));
const horizontalGrid: HorizontalCoordinatesGenerator = ({ yAxis, offset }) =>
  gridLines(yAxis, offset.top ?? 0, (offset.top ?? 0) + (offset.height ?? 0));

/**
 * Recharts' tooltip is a good part of a chart's first draw (it subscribes to the chart's state and lays out its box)
 * though no one has pointed at anything yet: it is added when the pointer or the keyboard focus first reaches the
 * chart, and follows from the next move.
 */
function useTooltipOnDemand() {
  const [wanted, setWanted] = useState(false);
  const want = () => setWanted(true);
  return [wanted, { onPointerEnter: want, onFocus: want }] as const;
}

export function ChartLegend({ items }: { items: { label: string; color: string; dashed?: boolean }[] }) {
  return (
    <div className={classes.legend}>
      {items.map((item) => (
        <span key={item.label} className={classes.legendItem}>
          <span
            className={classes.swatch}
            style={
              item.dashed
                ? { border: '1.5px dashed currentColor', background: 'transparent' }
                : { background: item.color }
            }
          />
          {item.label}
        </span>
      ))}
    </div>
  );
}

interface Size {
  width: number;
  height: number;
}

/** Room kept under a chart for its legend. */
const LEGEND_HEIGHT = 28;

type ActivityPoint = {
  date: string;
  sessions: number;
  messages: number;
  activeUsers: number | null;
  partial?: boolean;
};
const ACTIVITY_SERIES = ['sessions', 'activeUsers', 'messages'] as const;

/**
 * A bucket that is not over (today, this week) is drawn dashed from the last complete one, so a day under way does
 * not read as a plunge: each series has a solid line over complete buckets and a dashed one into the partial bucket.
 */
function withPartialSegments(points: ActivityPoint[]) {
  const last = points.length - 1;
  const partial = last >= 0 && points[last]!.partial === true;
  return points.map((p, i) => {
    const row: Record<string, unknown> = { ...p };
    for (const key of ACTIVITY_SERIES) {
      row[`${key}Done`] = partial && i === last ? null : p[key];
      row[`${key}SoFar`] = partial && i >= last - 1 ? p[key] : null;
    }
    return row;
  });
}

export function ActivityChart({ points, width, height }: Size & { points: ActivityPoint[] }) {
  const axis = useAxisColor();
  const [tooltip, reach] = useTooltipOnDemand();
  const hasActive = points.some((p) => p.activeUsers !== null);
  const partial = points.at(-1)?.partial === true;
  const series = [
    { key: 'sessions', label: 'Sessions', color: PALETTE[0]!, axis: 'left' },
    ...(hasActive ? [{ key: 'activeUsers', label: 'Active users', color: PALETTE[1]!, axis: 'left' }] : []),
    { key: 'messages', label: 'Messages (right axis)', color: PALETTE[4]!, axis: 'right' },
  ];
  const legend = [
    ...series.map(({ label, color }) => ({ label, color })),
    ...(partial ? [{ label: 'Dashed: not over yet (so far)', color: '', dashed: true }] : []),
  ];
  return (
    <Stack gap={4} h="100%">
      <div {...reach}>
        <LineChart
          width={width}
          height={height - LEGEND_HEIGHT}
          data={withPartialSegments(points)}
          margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
        >
          <CartesianGrid
            yAxisId="left"
            strokeDasharray="3 3"
            stroke={axis}
            strokeOpacity={0.3}
            verticalCoordinatesGenerator={verticalGrid}
            horizontalCoordinatesGenerator={horizontalGrid}
          />
          <XAxis dataKey="date" tick={dateTick} stroke={axis} interval={every(points.length, 12)} />
          <YAxis yAxisId="left" stroke={axis} width={48} interval={0} tick={integerTick} />
          <YAxis yAxisId="right" orientation="right" stroke={axis} width={52} interval={0} tick={integerTick} />
          {tooltip ? (
            <Tooltip
              formatter={(v) => formatInteger(Number(v))}
              labelFormatter={(label) =>
                points.find((p) => p.date === label)?.partial
                  ? `${formatDay(String(label))} (so far)`
                  : formatDay(String(label))
              }
            />
          ) : null}
          {series.map((s) => (
            <Line
              key={s.key}
              yAxisId={s.axis}
              type="linear"
              dataKey={`${s.key}Done`}
              name={s.label.replace(' (right axis)', '')}
              stroke={s.color}
              dot={false}
              isAnimationActive={false}
            />
          ))}
          {partial
            ? series.map((s) => (
                <Line
                  key={`${s.key}-so-far`}
                  yAxisId={s.axis}
                  type="linear"
                  dataKey={`${s.key}SoFar`}
                  name={`${s.label.replace(' (right axis)', '')} (so far)`}
                  stroke={s.color}
                  strokeDasharray="4 4"
                  dot={{ r: points.length === 1 ? 4 : 2 }}
                  tooltipType="none"
                  legendType="none"
                  isAnimationActive={false}
                />
              ))
            : null}
        </LineChart>
      </div>
      <ChartLegend items={legend} />
    </Stack>
  );
}

export function HorizontalBars<T extends Record<string, unknown>>({
  rows,
  label,
  value,
  name,
  money = false,
  width,
  height,
}: Size & {
  rows: T[];
  label: keyof T & string;
  value: keyof T & string;
  name: string;
  money?: boolean;
}) {
  const axis = useAxisColor();
  const [tooltip, reach] = useTooltipOnDemand();
  const format = (v: number) => (money ? formatUsd(v) : formatInteger(v));
  return (
    <div {...reach}>
      <BarChart
        width={width}
        height={height}
        data={rows}
        layout="vertical"
        margin={{ top: 4, right: 16, bottom: 0, left: 8 }}
      >
        <CartesianGrid
          strokeDasharray="3 3"
          stroke={axis}
          strokeOpacity={0.3}
          horizontal={false}
          verticalCoordinatesGenerator={verticalGrid}
          horizontalCoordinatesGenerator={horizontalGrid}
        />
        <XAxis type="number" stroke={axis} tick={money ? usdTick : integerTick} interval={0} />
        <YAxis type="category" dataKey={label as string} stroke={axis} width={150} interval={0} tick={labelTick} />
        {tooltip ? <Tooltip formatter={(v) => format(Number(v))} /> : null}
        <Bar dataKey={value as string} name={name} fill={PALETTE[0]} isAnimationActive={false} radius={[0, 3, 3, 0]} />
      </BarChart>
    </div>
  );
}

export function Donut<T extends Record<string, unknown>>({
  rows,
  label,
  value,
  money = false,
  colors,
  legendLabel = String,
  width,
  height,
}: Size & {
  rows: T[];
  label: keyof T & string;
  value: keyof T & string;
  money?: boolean;
  colors?: Record<string, string>;
  /** How a row's name reads in the legend (the colours stay keyed by the name itself). */
  legendLabel?: (name: string) => string;
}) {
  const [tooltip, reach] = useTooltipOnDemand();
  const format = (v: number) => (money ? formatUsd(v) : formatInteger(v));
  const colorOf = (row: T, i: number) => colors?.[String(row[label])] ?? PALETTE[i % PALETTE.length]!;
  return (
    <Stack gap={4} h="100%">
      <div {...reach}>
        <PieChart width={width} height={height - LEGEND_HEIGHT}>
          <Pie
            data={rows}
            dataKey={value}
            nameKey={label}
            innerRadius="55%"
            outerRadius="85%"
            isAnimationActive={false}
          >
            {rows.map((row, i) => (
              <Cell key={String(row[label])} fill={colorOf(row, i)} />
            ))}
          </Pie>
          {tooltip ? <Tooltip formatter={(v) => format(Number(v))} /> : null}
        </PieChart>
      </div>
      <ChartLegend items={rows.map((row, i) => ({ label: legendLabel(String(row[label])), color: colorOf(row, i) }))} />
    </Stack>
  );
}

export const sentimentColors = SENTIMENT_COLORS;
