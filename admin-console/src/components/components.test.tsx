import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { LineChart, niceMax } from './LineChart';
import { Pager } from './Pager';
import { formatCount } from '../lib/format';

afterEach(cleanup);

describe('Pager', () => {
  it('disables what cannot be done and reports clicks', () => {
    const onPrevious = vi.fn();
    const onNext = vi.fn();
    render(<Pager page={1} hasPrevious={false} hasNext onPrevious={onPrevious} onNext={onNext} />);
    expect(screen.getByText('Page 1')).toBeTruthy();
    const previous = screen.getByRole('button', { name: /Previous/ }) as HTMLButtonElement;
    expect(previous.disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    expect(onNext).toHaveBeenCalledTimes(1);
    expect(onPrevious).not.toHaveBeenCalled();
  });
});

describe('LineChart', () => {
  it('scales to a round maximum', () => {
    expect(niceMax([])).toBe(1);
    expect(niceMax([0.4])).toBe(1);
    expect(niceMax([13])).toBe(20);
    expect(niceMax([4100])).toBe(5000);
    expect(niceMax([100])).toBe(100);
  });

  it('shows the latest value and breaks the line at gaps', () => {
    const { container } = render(
      <LineChart title="Connections" format={formatCount}
        points={[{ at: 0, value: 1 }, { at: 1, value: 2 }, { at: 2, value: null }, { at: 3, value: 4 }, { at: 4, value: 1500 }]} />,
    );
    expect(screen.getByTestId('chart-Connections').textContent).toBe('1,500');
    expect(container.querySelectorAll('path')).toHaveLength(2);
    expect(container.querySelector('.scale')?.textContent).toBe('2,000');
  });
});
