/**
 * ECharts with only what the console draws (pie, bar, gauge, canvas renderer).
 * Imported only through a dynamic import (see EChart.tsx), so the sign-in route and
 * the shell never load it.
 */
import { BarChart, GaugeChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([PieChart, BarChart, GaugeChart, GridComponent, LegendComponent, TitleComponent, TooltipComponent, CanvasRenderer]);

export { echarts };
