import Testing
@testable import OnwardCore

@Suite("Cores this process may use")
struct CoresTests {
    @Test("the affinity mask of /proc/self/status, counted: two, one under taskset, forty, none without the line")
    func allowed() {
        #expect(Cores.allowed(status: "Name:\tonward\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n") == 2)
        #expect(Cores.allowed(status: "Cpus_allowed:\t1\n") == 1)
        #expect(Cores.allowed(status: "Cpus_allowed:\t000000ff,ffffffff\n") == 40)
        #expect(Cores.allowed(status: "Name:\tonward\n") == nil)
        #expect(Cores.available >= 1)
    }
}
