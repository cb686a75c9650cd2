package words

import (
	"math"
	"testing"
)

func TestHuman(t *testing.T) {
	tests := []struct {
		ms   int
		want string
	}{
		{-1, "-"}, {0, "0 ms"}, {600, "600 ms"}, {999, "999 ms"}, {1000, "1 s"}, {1049, "1 s"}, {1050, "1.1 s"},
		{24563, "24.6 s"}, {24550, "24.6 s"}, {10000, "10 s"}, {59949, "59.9 s"}, {59950, "1 min"}, {60000, "1 min"},
		{125400, "2 min 5 s"}, {600000, "10 min"}, {3599499, "59 min 59 s"}, {3599500, "1 h"}, {3900000, "1 h 5 min"},
		{86400000, "24 h"},
	}
	for _, tt := range tests {
		if got := Human(tt.ms); got != tt.want {
			t.Errorf("Human(%d): got %q, want %q", tt.ms, got, tt.want)
		}
	}
}

// Seconds rounds to the whole second, halves up, before Human writes it;
// below a second (0.999, NaN) it says so.
func TestSeconds(t *testing.T) {
	tests := []struct {
		s    float64
		want string
	}{
		{math.NaN(), "under a second"}, {-1, "under a second"}, {0.999, "under a second"}, {1, "1 s"},
		{12.49, "12 s"}, {12.5, "13 s"}, {59.4, "59 s"}, {59.5, "1 min"}, {73.2, "1 min 13 s"}, {3600, "1 h"},
		{1e12, "277 h 47 min"}, // held at 1,000,000 s
	}
	for _, tt := range tests {
		if got := Seconds(tt.s); got != tt.want {
			t.Errorf("Seconds(%v): got %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestCountRateEach(t *testing.T) {
	counts := map[int]string{0: "0", 999: "999", 1000: "1,000", 1000000: "1,000,000", -1234: "-1,234"}
	for n, want := range counts {
		if got := Count(n); got != want {
			t.Errorf("Count(%d): got %q, want %q", n, got, want)
		}
	}
	rates := []struct {
		n, slot int
		want    string
	}{
		{28, 100, "280/s"}, {200, 1000, "200/s"}, {1, 400, "2.5/s"}, {0, 100, "0/s"}, {3, 1000, "3/s"}, {5000, 100, "50,000/s"}, {1, 0, "-"},
	}
	for _, tt := range rates {
		if got := Rate(tt.n, tt.slot); got != tt.want {
			t.Errorf("Rate(%d, %d): got %q, want %q", tt.n, tt.slot, got, tt.want)
		}
	}
	if got := Each(962, 200); got != "4.8" {
		t.Errorf("Each(962, 200): got %q, want 4.8", got)
	}
	if got := Each(1000, 200); got != "5" {
		t.Errorf("Each(1000, 200): got %q, want 5", got)
	}
}

// Issue 24, item 12: one rounding per figure. The retries a client to a
// hundredth, halves up: 0.5548 is 0.55 (the JSON said 0.554, the picture
// 0.555, the program 0.6), 0.555 is 0.56 (halves up: 555*200+1000 over
// 2000 is 56.0), 962 over 200 4.81. A rate a second as Rate rounds it,
// in plain digits: 28 in 100 ms is 280, 1 in 400 ms 2.5, 24,306 in 100 ms
// 243060, 28 in 30 ms 933 (933.3).
func TestOneRoundingPerFigure(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{PerClient(5548, 10000), "0.55"},
		{PerClient(555, 1000), "0.56"},
		{PerClient(554, 1000), "0.55"},
		{PerClient(962, 200), "4.81"},
		{PerClient(0, 200), "0.00"},
		{PerClient(5, 0), "0"},
		{PerSecond(28, 100), "280"},
		{PerSecond(1, 400), "2.5"},
		{PerSecond(24306, 100), "243060"},
		{PerSecond(28, 30), "933"},
		{Rate(28, 30), "933/s"},
		{Rate(24306, 100), "243,060/s"},
		{PerSecond(3, 0), "-"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
