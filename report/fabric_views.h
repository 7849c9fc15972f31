#pragma once
// The page's picture of the fabric (pure): the whole fabric, each pod, and every cable with
// its evidence for one switch's ports, sized for 32k HCAs. The whole fabric's view draws every
// switch but one line per switch (its cables to the tier above, to a bus), a pod's view every
// bundle of its switches and of the cores they reach, a switch's view each port
// (report/page.js draws that one from `cables`). The HCAs are one box per leaf in every view.
#include <map>
#include <string>
#include <vector>

#include "report/fabric_map.h"

namespace ibburn::report {

// Pod per node: the connected groups of leaves and spines once the top tier (the cores of a
// three-tier fabric) is taken away; an HCA is in its leaf's pod. -1 for cores and nodes no HCA
// reaches. A fabric of two tiers is one pod.
std::vector<int> node_pods(const topo::Fabric& fabric, const std::vector<int>& tiers);

struct PictureNode {
  std::string name;
  int tier = 0;  // node_tiers
  int pod = -1;  // node_pods
};

struct PictureCable {
  size_t a = 0, b = 0;  // PictureNode indices, a's name before b's
  int a_port = 0, b_port = 0;
  CableVerdict verdict = CableVerdict::Ok;
  bool suspect = false;
  bool planned_only = false;          // missing: in the plan, not in the fabric
  std::string label;                  // the cable's label in cables.csv, when the run listed it
  std::vector<std::string> evidence;  // both ends' findings, once each
};

struct FabricPicture {
  std::vector<PictureNode> nodes;  // every node an HCA reaches, by fabric node id order
  std::vector<PictureCable> cables;
  std::vector<std::string> pods;    // "pod 1" ..., numbered in order of their first leaf's name
  FabricMap fabric;                 // the whole fabric (one pod: every bundle, as a pod's view)
  std::vector<FabricMap> pod_maps;  // one per pod when there are several
};

// `labels`: cable_name (report/history.h) -> label.
FabricPicture fabric_picture(const topo::Fabric& fabric, const std::map<std::string, PortEvidence>& ports,
                             const std::vector<std::pair<PortRef, PortRef>>& missing,
                             const std::map<std::string, std::string>& labels);

// The whole fabric of several pods: the cores in a row over the pods side by side, each pod
// framed, its spines over its leaves over their HCA boxes. One line per switch and HCA box
// carries all its cables to higher tiers (to a cable between switches of one tier, the first
// by name) up to its pod's bus (leaves) or the cores' bus (spines), so every cable is on
// exactly one line and the view has no more lines than boxes.
FabricMap layout_overview(const topo::Fabric& fabric, const std::vector<int>& tiers, const std::vector<int>& pods,
                          const std::map<std::string, PortEvidence>& ports,
                          const std::vector<std::pair<PortRef, PortRef>>& missing);

}  // namespace ibburn::report
