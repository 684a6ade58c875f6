// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Benchmark output: the console table, CSV, JSON and a dependency-free SVG
// chart (TFLOP/s per problem, cuBLAS beside each Tessera kernel).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "gemm_bench.hpp"

namespace tessera::bench {
namespace {

std::string shape_label(const Shape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
    else out += c;
  }
  return out;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

void print_header(const DeviceInfo& d, double measured_clock_mhz) {
  std::printf("device: %s (sm_%d), %d SMs, peak SM clock %d MHz, measured %.0f MHz under load, "
              "L2 %.1f MiB\n",
              d.name.c_str(), d.sm, d.sm_count, d.max_sm_clock_mhz, measured_clock_mhz,
              d.l2_bytes / 1048576.0);
  std::printf("peak estimates (dense, from SM count x peak clock): f16/bf16 %.0f, tf32 %.0f, "
              "f32 SIMT %.1f TFLOP/s; DRAM %.0f GB/s\n",
              d.peak_tflops_f16_tc, d.peak_tflops_tf32_tc, d.peak_tflops_f32_simt,
              d.peak_dram_gbps);
}

void print_table(const std::vector<ProblemResult>& results) {
  for (const ProblemResult& r : results)
    if (r.copy_gbps > 0) {
      std::printf("measured copy bandwidth: %.0f GB/s (the %%BW column's denominator; numerator: "
                  "bytes of A and B once over the median time)\n",
                  r.copy_gbps);
      break;
    }
  for (const ProblemResult& r : results)
    if (r.problem.beta != 0.0f) {
      std::printf("D = A B + %g C, C in D's buffer (an in-place update, as cuBLAS requires) in every row\n",
                  static_cast<double>(r.problem.beta));
      break;
    }
  std::printf("%-18s %-5s %-3s %-26s %9s %9s %8s %6s %5s %5s %7s %5s %9s %s\n", "shape (MxNxK)",
              "type", "lay", "impl", "TFLOP/s", "ms", "xcuBLAS", "%peak", "%BW", "regs", "smem",
              "occ", "rel.err", "status");
  for (const ProblemResult& r : results) {
    for (const Measurement& m : r.rows) {
      std::string const smem =
          m.static_smem < 0 ? "-" : std::to_string((m.static_smem + m.dynamic_smem + 512) / 1024) + "K";
      std::printf("%-18s %-5s %-3s %-26s %9.2f %9.3f %8.3f %6.1f %5s %5s %7s %5s %9.2e %s%s\n",
                  shape_label(r.problem.shape).c_str(),
                  type_label(r.problem).c_str(), r.problem.layout.c_str(),
                  (m.impl + (m.default_choice ? " *" : "")).c_str(), m.tflops, m.median_ms, m.ratio_to_cublas, m.pct_of_peak,
                  m.pct_of_bandwidth < 0 ? "-" : fmt("%.1f", m.pct_of_bandwidth).c_str(),
                  m.registers < 0 ? "-" : std::to_string(m.registers).c_str(), smem.c_str(),
                  m.occupancy < 0 ? "-" : fmt("%.0f%%", 100 * m.occupancy).c_str(), m.error,
                  m.ok ? "ok" : "FAIL", m.note.empty() ? "" : ("  " + m.note).c_str());
    }
  }
}

bool write_csv(const std::string& path, const DeviceInfo& device,
               const std::vector<ProblemResult>& results) {
  std::ofstream f(path);
  if (!f) return false;
  f << "device,sm,group,m,n,k,batch,type,layout,impl,default_choice,ok,runs,median_ms,min_ms,max_ms,tflops,"
       "ratio_to_cublas,pct_of_peak,pct_of_bandwidth,copy_gbps,registers,static_smem,dynamic_smem,"
       "threads,blocks_per_sm,occupancy,rel_error,error_bound,note,beta\n";
  for (const ProblemResult& r : results)
    for (const Measurement& m : r.rows) {
      Shape const& s = r.problem.shape;
      f << csv_field(device.name) << ',' << device.sm << ',' << s.group << ',' << s.m << ','
        << s.n << ',' << s.k << ',' << r.problem.batch_count << ',' << type_label(r.problem)
        << ',' << r.problem.layout << ',' << m.impl << ',' << (m.default_choice ? 1 : 0) << ','
        << (m.ok ? 1 : 0) << ',' << m.runs
        << ',' << m.median_ms << ',' << m.min_ms << ',' << m.max_ms << ',' << m.tflops << ','
        << m.ratio_to_cublas << ',' << m.pct_of_peak << ',' << m.pct_of_bandwidth << ','
        << r.copy_gbps << ',' << m.registers << ','
        << m.static_smem << ',' << m.dynamic_smem << ',' << m.threads << ',' << m.blocks_per_sm
        << ',' << m.occupancy << ',' << m.error << ',' << m.error_bound << ','
        << csv_field(m.note) << ',' << r.problem.beta << '\n';
    }
  return static_cast<bool>(f);
}

bool write_json(const std::string& path, const DeviceInfo& device, double measured_clock_mhz,
                const std::vector<ProblemResult>& results) {
  std::ofstream f(path);
  if (!f) return false;
  auto num = [](double v) { return std::isfinite(v) ? fmt("%.6g", v) : std::string("null"); };
  double copy_gbps = 0;
  for (const ProblemResult& r : results) copy_gbps = std::max(copy_gbps, r.copy_gbps);
  f << "{\n  \"device\": {\"name\": \"" << json_escape(device.name) << "\", \"sm\": " << device.sm
    << ", \"sm_count\": " << device.sm_count << ", \"peak_clock_mhz\": " << device.max_sm_clock_mhz
    << ", \"measured_clock_mhz\": " << num(measured_clock_mhz)
    << ", \"l2_bytes\": " << device.l2_bytes << ", \"copy_gbps\": " << num(copy_gbps)
    << "},\n  \"results\": [";
  bool first = true;
  for (const ProblemResult& r : results)
    for (const Measurement& m : r.rows) {
      Shape const& s = r.problem.shape;
      f << (first ? "\n" : ",\n") << "    {\"group\": \"" << s.group << "\", \"m\": " << s.m
        << ", \"n\": " << s.n << ", \"k\": " << s.k << ", \"batch\": " << r.problem.batch_count
        << ", \"type\": \"" << type_label(r.problem) << "\", \"beta\": " << num(r.problem.beta)
        << ", \"layout\": \"" << r.problem.layout
        << "\", \"impl\": \"" << json_escape(m.impl)
        << "\", \"default_choice\": " << (m.default_choice ? "true" : "false")
        << ", \"ok\": " << (m.ok ? "true" : "false")
        << ", \"runs\": " << m.runs << ", \"median_ms\": " << num(m.median_ms)
        << ", \"tflops\": " << num(m.tflops) << ", \"ratio_to_cublas\": " << num(m.ratio_to_cublas)
        << ", \"pct_of_peak\": " << num(m.pct_of_peak)
        << ", \"pct_of_bandwidth\": " << (m.pct_of_bandwidth < 0 ? "null" : num(m.pct_of_bandwidth))
        << ", \"registers\": " << m.registers
        << ", \"static_smem\": " << m.static_smem << ", \"dynamic_smem\": " << m.dynamic_smem
        << ", \"occupancy\": " << num(m.occupancy) << ", \"rel_error\": " << num(m.error)
        << ", \"note\": \"" << json_escape(m.note) << "\"}";
      first = false;
    }
  f << "\n  ]\n}\n";
  return static_cast<bool>(f);
}

bool write_svg(const std::string& path, const DeviceInfo& device,
               const std::vector<ProblemResult>& results) {
  // Implementations in order of first appearance; cuBLAS grey, others coloured.
  std::vector<std::string> impls;
  double max_tflops = 1;
  for (const ProblemResult& r : results)
    for (const Measurement& m : r.rows) {
      if (std::find(impls.begin(), impls.end(), m.impl) == impls.end()) impls.push_back(m.impl);
      max_tflops = std::max(max_tflops, m.tflops);
    }
  static const char* kColours[] = {"#888888", "#1f77b4", "#d62728", "#2ca02c",
                                   "#ff7f0e", "#9467bd", "#17becf", "#8c564b"};
  int const bar = 14, gap = 18, left = 70, top = 50, plot_h = 320, bottom = 150;
  int const group_w = static_cast<int>(impls.size()) * bar + gap;
  int const width = left + std::max<int>(1, static_cast<int>(results.size())) * group_w + 200;
  int const height = top + plot_h + bottom;
  // Round the axis up to a 1-2-5 step.
  double step = std::pow(10.0, std::floor(std::log10(max_tflops)));
  if (max_tflops / step > 5) step *= 2;
  else if (max_tflops / step < 2) step /= 2;
  double const axis_max = std::ceil(max_tflops / step) * step;

  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s << "<text x=\"" << left << "\" y=\"22\" font-size=\"15\">GEMM TFLOP/s, Tessera vs cuBLAS on "
    << xml_escape(device.name) << " (sm_" << device.sm << ")</text>\n";
  for (double v = 0; v <= axis_max + 1e-9; v += step) {
    double const y = top + plot_h - v / axis_max * plot_h;
    s << "<line x1=\"" << left << "\" x2=\"" << width - 190 << "\" y1=\"" << y << "\" y2=\"" << y
      << "\" stroke=\"#dddddd\"/>\n";
    s << "<text x=\"" << left - 6 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">" << fmt("%g", v)
      << "</text>\n";
  }
  s << "<text transform=\"translate(16," << top + plot_h / 2 << ") rotate(-90)\" "
       "text-anchor=\"middle\">TFLOP/s (median)</text>\n";
  for (size_t g = 0; g < results.size(); ++g) {
    const ProblemResult& r = results[g];
    int const x0 = left + static_cast<int>(g) * group_w + gap / 2;
    for (const Measurement& m : r.rows) {
      size_t const i = static_cast<size_t>(std::find(impls.begin(), impls.end(), m.impl) - impls.begin());
      double const h = m.tflops / axis_max * plot_h;
      int const x = x0 + static_cast<int>(i) * bar;
      s << "<rect x=\"" << x << "\" y=\"" << top + plot_h - h << "\" width=\"" << bar - 2
        << "\" height=\"" << h << "\" fill=\"" << kColours[i % 8] << "\"" << (m.ok ? "" : " fill-opacity=\"0.35\"")
        << "><title>" << xml_escape(m.impl) << ": " << fmt("%.1f", m.tflops) << " TFLOP/s"
        << (m.ok ? "" : " (FAIL)") << "</title></rect>\n";
    }
    std::string const label = shape_label(r.problem.shape) + " " +
                               type_label(r.problem) + " " + r.problem.layout;
    int const lx = x0 + static_cast<int>(impls.size()) * bar / 2;
    s << "<text transform=\"translate(" << lx << "," << top + plot_h + 10
      << ") rotate(50)\" text-anchor=\"start\">" << xml_escape(label) << "</text>\n";
  }
  s << "<line x1=\"" << left << "\" x2=\"" << width - 190 << "\" y1=\"" << top + plot_h
    << "\" y2=\"" << top + plot_h << "\" stroke=\"black\"/>\n";
  for (size_t i = 0; i < impls.size(); ++i) {
    int const y = top + 10 + static_cast<int>(i) * 18;
    s << "<rect x=\"" << width - 180 << "\" y=\"" << y - 10 << "\" width=\"12\" height=\"12\" fill=\""
      << kColours[i % 8] << "\"/><text x=\"" << width - 162 << "\" y=\"" << y << "\">"
      << xml_escape(impls[i]) << "</text>\n";
  }
  s << "</svg>\n";
  std::ofstream f(path);
  if (!f) return false;
  f << s.str();
  return static_cast<bool>(f);
}

}  // namespace tessera::bench
