import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The shared libraries of a running process, from /proc/PID/maps: the file
/// names mapped. For the libraries the daemon opens only when it needs them
/// (libmosquitto, libgps).
func mappedLibraries(_ pid: pid_t) -> Set<String> {
    let maps = FileIO.text("/proc/\(pid)/maps") ?? ""
    var names: Set<String> = []
    for line in maps.split(separator: "\n") {
        guard let slash = line.lastIndex(of: "/") else { continue }
        names.insert(String(line[line.index(after: slash)...]))
    }
    return names
}
